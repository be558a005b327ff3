// oidc-provider (a dev dependency, the tests' OpenID Provider) ships no type declarations.
declare module 'oidc-provider';
