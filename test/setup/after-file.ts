import { afterAll } from 'vitest';
import { cleanUpAfterFile } from '../helpers/cleanup.js';

// Run by Vitest before every test file (`setupFiles`), even in a process that other files used
// before: each file's apps, servers and throwaway databases go when its tests are done.
afterAll(cleanUpAfterFile);
