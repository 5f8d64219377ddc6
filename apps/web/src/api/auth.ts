import type { Captcha, LoginInput, MenuRoute, MfaLoginInput, SignInResult, TenantOption, UserInfo } from '@atrium/contracts/auth';
import { http } from './http';

export type SystemMeta = { product: string; version: string; captcha: boolean; registration: boolean };
export type Paged<T> = { list: T[]; total: number; pageNum: number; pageSize: number };
export type RegisterInput = {
  accountId: string;
  email: string;
  password: string;
  tenantName: string;
  code?: string;
  captchaId?: string;
};

export const authApi = {
  meta: () => http.get<SystemMeta>('/api/system/meta', { silent: true }),
  captcha: () => http.get<Captcha>('/api/system/captcha', { silent: true }),
  // the login screen shows its own message, so no toast here
  login: (input: LoginInput) => http.post<SignInResult>('/api/system/user/login', input, { silent: true }),
  // the second step: a code from the authenticator app or a recovery code
  loginMfa: (input: MfaLoginInput) => http.post<{ token: string }>('/api/system/user/login/mfa', input, { silent: true }),
  // forced enrolment after the password, carrying the mfaToken
  enrolBegin: (mfaToken: string) =>
    http.post<{ secret: string; otpauthUrl: string }>('/api/system/user/login/mfa/totp', { mfaToken }, { silent: true }),
  enrolConfirm: (mfaToken: string, code: string) =>
    http.post<{ token: string; recoveryCodes: string[] }>('/api/system/user/login/mfa/totp/confirm', { mfaToken, code }, { silent: true }),
  logout: () => http.post<unknown>('/api/system/user/logout', undefined, { silent: true, ignoreInvalidLogin: true }),
  // a session signed in by single sign-on (ADR 049): signing out answers where to end it at the provider
  ssoLogout: () =>
    http.post<{ endSessionUrl: string | null }>('/api/auth/sso/logout', undefined, { silent: true, ignoreInvalidLogin: true }),
  userInfo: () => http.post<UserInfo>('/api/system/user/userInfoLogin'),
  menu: () => http.post<MenuRoute[]>('/api/system/user/menu'),
  tenants: (params: { pageNum: number; pageSize: number; keyword?: string }) =>
    http.get<Paged<TenantOption>>('/api/system/user/tenant', { params }),
  // the answer's field error says why a switch was refused
  switchRole: (role: string | null) => http.post<{ role: string; activeRole: string | null }>('/api/system/user/switchRole', { role }),
  switchTenant: (tenantId: number) => http.post<{ token: string }>('/api/system/user/switchTenant', { tenantId }),
  // a new account is signed in at once (the answer carries its token)
  register: (input: RegisterInput) => http.post<{ token?: string }>('/api/system/user/register', input),
  resetCode: (input: { email: string; code?: string; captchaId?: string }) =>
    http.post<unknown>('/api/system/user/password/reset-code', input),
  resetPassword: (input: { email: string; resetCode: string; password: string }) =>
    http.post<unknown>('/api/system/user/password/reset', input),
};
