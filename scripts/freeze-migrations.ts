// Adds the checksum of migrations that have landed on main to src/core/db/migration-checksums.json,
// which `npm test` checks (src/core/db/migrations-frozen.test.ts). A checksum already listed is never
// changed. Run it when a migration lands (merged to main), not while it is still being written:
//
//   npm run migrations:freeze -- 0006_employee_search 0007_keep_training_history
//
// Without names it lists the migrations that have no checksum yet, and changes nothing.
import { freezeMigrations, migrationFiles, readChecksums } from '../src/core/db/migration-checksums.js';

const names = process.argv.slice(2);
if (names.length === 0) {
  const listed = readChecksums();
  const unlisted = migrationFiles().filter((file) => listed[file] === undefined);
  console.log(
    unlisted.length === 0
      ? 'every migration has its checksum'
      : `without a checksum (not landed yet?): ${unlisted.join(', ')}\n` +
          'once they land: npm run migrations:freeze -- <name>…',
  );
} else {
  const added = freezeMigrations(names);
  console.log(added.length === 0 ? 'nothing to add' : `added the checksum of ${added.join(', ')}`);
}
