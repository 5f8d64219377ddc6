export type { Paged, RegisterInput, SystemMeta } from './auth';
export { authApi } from './auth';
export type { Envelope, RequestOptions } from './http';
export { ApiError, http, request, USER_INFO_URL } from './http';
export { getDeviceId, getToken, isLoggedIn, setToken } from './storage';
