export const CLIENT_VERSION = '2.3.0';

/** The API version this client is written for; sent as `X-API-Version` on every request (a pin). */
export const API_VERSION = '2.3.0';
