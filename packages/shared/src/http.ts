// undici is heavy to load; servers import this entry only when a system URL is configured.
export { type HttpTransportOptions, httpTransport } from './rest/http.js';
