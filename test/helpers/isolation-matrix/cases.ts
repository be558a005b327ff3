import { expect } from 'vitest';
import {
  API_KEY_REQUIRED,
  type Call,
  type CaseName,
  errorBody,
  errorBodyFor,
  isNa,
  NEVER,
  observable,
  type Row,
  readState,
  send,
} from './matrix.js';
import type { World } from './world.js';

/** The four cases of the matrix, run for one row. */

/** The row's declaration of a case: a reason when it does not apply, else undefined. */
export function notApplicable(r: Row, name: CaseName): string | undefined {
  const declared = {
    '401':
      r.as === 'anyone' && !r.unauthenticated
        ? { na: 'public route (no credentials needed)' }
        : r.unauthenticated,
    "another account's": r.otherAccount,
    '400': r.invalid,
    success: undefined,
  }[name];
  return isNa(declared) ? declared.na : undefined;
}

/** What a case checks, for its test's name. */
export function caseTitle(r: Row, name: CaseName): string {
  const how = r.otherAccount;
  if (name === '401') return 'no credentials → 401';
  if (name === '400')
    return `one invalid input → 400 ${isNa(r.invalid) ? '' : (r.invalid.code ?? 'validation_failed')}`;
  if (name === 'success') return `success → ${r.success.status}`;
  if (isNa(how)) return "another account's";
  return {
    object: "another account's object → 404 as a nonexistent one, unchanged",
    list: "another account's items → never listed",
    account: "another account's path → as a nonexistent account",
    custom: "another account's data → untouched",
  }[how.kind];
}

export function runCase(w: World, r: Row, name: CaseName): Promise<void> {
  return { '401': unauthenticated, "another account's": otherAccount, '400': invalid, success }[name](w, r);
}

/** Without credentials: 401, and nothing changes. */
async function unauthenticated(w: World, r: Row) {
  const obj = await r.object?.(w, w.a, '401');
  const before = await readState(w, r, w.a, obj);
  const res = await send(w, r, r.call(w.a, obj), 'nobody');
  expect(res.statusCode, res.body).toBe(401);
  expect(res.json()).toEqual(
    r.as === 'key'
      ? API_KEY_REQUIRED
      : r.as === 'scim'
        ? errorBodyFor('scim', 'scim_token_required')
        : errorBody('sign_in_required'),
  );
  expect(await readState(w, r, w.a, obj)).toEqual(before);
}

/** The same call on another account's path. */
function onAccount(call: Call, from: number, to: number): Call {
  return { ...call, url: call.url.replace(`/admin/api/accounts/${from}`, `/admin/api/accounts/${to}`) };
}

/** Another account's objects and paths answer exactly as nonexistent ones, and stay as they were. */
async function otherAccount(w: World, r: Row) {
  const how = r.otherAccount;
  if (isNa(how)) throw new Error('not applicable');
  const { a, b } = w;
  const theirObject = await r.object?.(w, b, "another account's");
  const before = await readState(w, r, b, theirObject);
  const actor = { actor: r.as, side: a };

  if (r.route.includes('/:accountId')) {
    // A's administrator on B's path. An operator-only route refuses them before the account is
    // looked at (403), just as for an account that does not exist.
    const theirPath = r.call(b, theirObject);
    const them = await send(w, r, theirPath, { actor: 'admin', side: a });
    const none = await send(w, r, onAccount(theirPath, b.accountId, NEVER), { actor: 'admin', side: a });
    expect(them.json()).toEqual(errorBody(r.as === 'operator' ? 'operator_required' : 'account_not_found'));
    expect(observable(them)).toEqual(observable(none));
  }

  if (how.kind === 'object') {
    const pairs = [
      [theirObject, how.missing(theirObject), how.notFound] as const,
      ...(how.pairs?.(w, theirObject) ?? []),
    ];
    for (const [theirs, missing, notFound] of pairs) {
      const them = await send(w, r, r.call(a, theirs), actor);
      const none = await send(w, r, r.call(a, missing), actor);
      expect(them.json(), JSON.stringify(theirs)).toEqual(errorBodyFor(r.as, notFound));
      expect(observable(them)).toEqual(observable(none));
    }
  } else if (how.kind === 'list') {
    const theirIds = how.theirs(w);
    expect(theirIds.length).toBeGreaterThan(0);
    // B sees its own items in this list: the ids compared below are really there to be seen.
    const inB = await send(w, r, r.call(b, theirObject), { actor: r.as, side: b });
    expect(inB.statusCode, inB.body).toBe(r.success.status);
    expect(how.ids(inB)).toEqual(expect.arrayContaining(theirIds));
    const inA = await send(w, r, r.call(a, await r.object?.(w, a, "another account's")), actor);
    expect(inA.statusCode, inA.body).toBe(r.success.status);
    const seen = new Set(how.ids(inA));
    expect(theirIds.filter((id) => seen.has(id))).toEqual([]);
  } else if (how.kind === 'custom') {
    await how.run(w);
  }
  expect(await readState(w, r, b, theirObject)).toEqual(before);
}

/** One invalid input: 400 with the route's code, and nothing changes. */
async function invalid(w: World, r: Row) {
  const spec = r.invalid;
  if (isNa(spec)) throw new Error('not applicable');
  const obj = await r.object?.(w, w.a, '400');
  const before = await readState(w, r, w.a, obj);
  const res = await send(w, r, spec.call(w.a, obj), { actor: r.as, side: w.a });
  expect(res.statusCode, res.body).toBe(400);
  const code = spec.code ?? 'validation_failed';
  expect(res.json()).toEqual(
    r.as === 'scim' ? errorBodyFor('scim', code) : { ...errorBody(code), details: expect.any(Object) },
  );
  expect(await readState(w, r, w.a, obj)).toEqual(before);
}

/** The normal call answers its documented status. */
async function success(w: World, r: Row) {
  const obj = await r.object?.(w, w.a, 'success');
  const res = await send(w, r, r.call(w.a, obj), { actor: r.as, side: w.a });
  expect(res.statusCode, res.body).toBe(r.success.status);
  r.success.check?.(res, w.a, obj);
}
