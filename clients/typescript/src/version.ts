export const CLIENT_VERSION = '2.3.0';
