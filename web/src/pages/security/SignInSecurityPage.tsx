import { Stack } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader';
import { MfaFactors } from './MfaFactors';

/** /security — the signed-in user's own second factors and recovery codes. */
export function SignInSecurityPage() {
  return (
    <>
      <PageHeader
        title="Sign-in security"
        description="Second factors that confirm it is you after your password: an authenticator app, or a passkey or security key."
      />
      <Stack maw={760}>
        <MfaFactors />
      </Stack>
    </>
  );
}
