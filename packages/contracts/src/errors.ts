/**
 * The error catalogue: every non-200 `code` the API can answer, with its HTTP status and a message in
 * each supported language. One place, so the server, the OpenAPI document and the web app agree.
 */
export const errorCatalogue = {
  ok: { code: 200, status: 200, zh: '成功', en: 'Success' },
  badRequest: { code: 400, status: 400, zh: '请求参数有误', en: 'The request is invalid' },
  validation: { code: 40001, status: 400, zh: '输入校验未通过', en: 'Some fields are invalid' },
  malformedJson: { code: 40002, status: 400, zh: '请求体不是有效的 JSON', en: 'The request body is not valid JSON' },
  unauthorized: { code: 401, status: 401, zh: '需要登录', en: 'Sign-in required' },
  tokenInvalid: { code: 11000, status: 401, zh: '登录已失效，请重新登录', en: 'Your sign-in has expired, please sign in again' },
  sessionEnded: { code: 1302, status: 401, zh: '会话已结束，请重新登录', en: 'Your session has ended, please sign in again' },
  loginFailed: { code: 1001, status: 401, zh: '账号或密码错误', en: 'Wrong account or password' },
  captchaInvalid: { code: 1002, status: 400, zh: '验证码错误或已过期', en: 'The verification code is wrong or has expired' },
  accountLocked: {
    code: 1003,
    status: 401,
    zh: '登录失败次数过多，账号已锁定至 {until}',
    en: 'Too many failed sign-ins: the account is locked until {until}',
  },
  noTenant: { code: 1004, status: 403, zh: '账号已停用或没有可进入的租户', en: 'This account is disabled or has no tenant it may enter' },
  registrationDisabled: { code: 1005, status: 403, zh: '已关闭自助注册', en: 'Self-service registration is turned off' },
  resetCodeInvalid: { code: 1006, status: 400, zh: '验证码错误或已过期', en: 'The reset code is wrong or has expired' },
  accountExists: {
    code: 1007,
    status: 409,
    zh: '无法用这些信息注册。如果您已有账号，请直接登录或找回密码；请换一个账号名再试',
    en: 'These details cannot be registered. If you already have an account, sign in or reset your password; otherwise try another account name',
  },
  mfaTokenInvalid: {
    code: 1021,
    status: 401,
    zh: '二次验证已失效，请重新输入密码登录',
    en: 'The second sign-in step has expired: sign in with your password again',
  },
  mfaStepUp: {
    code: 1022,
    status: 403,
    zh: '此操作需要再次验证：请输入验证器中的动态码，或使用通行密钥',
    en: 'This needs your second factor again: enter the code from your authenticator app, or use your passkey',
  },
  ssoOnly: {
    code: 1023,
    status: 403,
    zh: '该租户只能通过单点登录进入，请使用“单点登录”',
    en: 'This tenant signs in with single sign-on only: use “Sign in with single sign-on”',
  },
  ssoCodeInvalid: {
    code: 1024,
    status: 401,
    zh: '单点登录已失效，请重新登录',
    en: 'The single sign-on has expired: sign in again',
  },
  tenantNotAllowed: {
    code: 1301,
    status: 403,
    zh: '无权进入该租户，或租户已停用、已过期',
    en: 'You may not enter this tenant, or it is disabled or expired',
  },
  forbidden: { code: 403, status: 403, zh: '没有权限执行此操作', en: 'You do not have permission to do this' },
  notFound: { code: 404, status: 404, zh: '资源不存在', en: 'Not found' },
  routeNotFound: { code: 40401, status: 404, zh: '接口不存在', en: 'No such API endpoint' },
  methodNotAllowed: { code: 405, status: 405, zh: '不支持的请求方法', en: 'Method not allowed' },
  conflict: { code: 409, status: 409, zh: '数据冲突', en: 'Conflict' },
  payloadTooLarge: { code: 413, status: 413, zh: '请求体过大', en: 'The request body is too large' },
  unsupportedMediaType: { code: 415, status: 415, zh: '不支持的内容类型', en: 'Unsupported content type' },
  rateLimited: { code: 429, status: 429, zh: '请求过于频繁，请稍后再试', en: 'Too many requests, please try again later' },
  internal: { code: 500, status: 500, zh: '服务器内部错误', en: 'Internal server error' },
  unavailable: { code: 503, status: 503, zh: '服务暂不可用，请稍后重试', en: 'Service temporarily unavailable, please retry' },
  secretsKeyMissing: {
    code: 50301,
    status: 503,
    zh: '服务器未配置加密密钥（SECRETS_KEY），不能保存密钥',
    en: 'The server has no encryption key (SECRETS_KEY): secrets cannot be stored',
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorEntry = { code: number; status: number; zh: string; en: string };
export type ErrorKey = keyof typeof errorCatalogue;
export type Language = 'zh-CN' | 'en-US';

/** Codes that mean "this sign-in is no longer valid" (spec section 8). */
export const INVALID_LOGIN_CODES: readonly number[] = [11000, 1302];
export const SUCCESS_CODE = 200;

/** Picks the message language from an Accept-Language header; Chinese is the default. */
export function pickLanguage(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return 'zh-CN';
  const first = acceptLanguage.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en-US' : 'zh-CN';
}

/** The entry's message in `lang`, with `{name}` placeholders filled from `params`. */
export function errorMessage(entry: ErrorEntry, lang: Language, params?: Record<string, string | number>): string {
  const text = lang === 'en-US' ? entry.en : entry.zh;
  return params ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole)) : text;
}

/**
 * Why a 409 refused to change a row, in words the user can act on: the envelope's message for a
 * `conflict` raised with this reason (`{count}` filled in), instead of the bare "数据冲突".
 */
export const conflictReasons: Record<string, { zh: string; en: string }> = {
  'apiToken.sessionOnly': {
    zh: 'API 令牌不能执行此操作（创建令牌、修改登录标识或密码、管理验证方式、切换租户或角色）：请登录后在应用中进行',
    en: 'An API token cannot do this (make tokens, change sign-in identifiers or passwords, manage factors, switch tenant or role): sign in and do it in the app',
  },
  'dept.hasChildren': {
    zh: '该部门下还有 {count} 个子部门，请先删除或移走它们',
    en: 'The department has {count} sub-department(s): delete or move them first',
  },
  'dept.hasUsers': {
    zh: '该部门下还有 {count} 名用户，请先把他们调到其他部门',
    en: 'The department is used by {count} user(s): move them to another department first',
  },
  'post.inUse': { zh: '该岗位正被 {count} 名用户使用，不能删除', en: 'The post is held by {count} user(s): it cannot be deleted' },
  'role.inUse': { zh: '该角色正被 {count} 名用户使用，不能删除', en: 'The role is held by {count} user(s): it cannot be deleted' },
  'menu.hasChildren': { zh: '该菜单下还有 {count} 个子菜单，请先删除它们', en: 'The menu has {count} sub-menu(s): delete them first' },
  'tenant.hasUsers': { zh: '该租户下还有 {count} 名用户，不能删除', en: 'The tenant still has {count} user(s): it cannot be deleted' },
  'tenant.current': {
    zh: '您正登录在该租户中，请先切换到其他租户',
    en: 'You are signed in to this tenant: switch to another one first',
  },
  'warehouse.hasStock': {
    zh: '该仓库还有 {count} 条库存记录，不能删除',
    en: 'The warehouse holds {count} stock record(s): it cannot be deleted',
  },
  'warehouse.hasSales': {
    zh: '该仓库已用于 {count} 张销售订单，不能删除',
    en: 'The warehouse is used by {count} sales order(s): it cannot be deleted',
  },
  'category.hasChildren': {
    zh: '该分类下还有 {count} 个子分类，请先删除或移走它们',
    en: 'The category has {count} sub-categories: delete or move them first',
  },
  'category.hasProducts': { zh: '该分类下还有 {count} 个商品，不能删除', en: 'The category has {count} product(s): it cannot be deleted' },
  'member.hasSales': { zh: '该会员已有 {count} 张销售订单，不能删除', en: 'The member has {count} sales order(s): it cannot be deleted' },
  'user.self': { zh: '不能停用或删除自己', en: 'You cannot disable or delete yourself' },
  'user.lastSuperAdmin': {
    zh: '这是最后一位超级管理员，不能停用或删除',
    en: 'This is the last super admin: it cannot be disabled or deleted',
  },
  'product.inUse': {
    zh: '该商品已有库存、流水或销售记录，不能删除',
    en: 'The product has stock, ledger entries or sales: it cannot be deleted',
  },
  'product.inMall': { zh: '该商品已发布到商城，请先在商城中删除', en: 'The product is published in the mall: delete it there first' },
  'stock.insufficient': {
    zh: '“{sku}”库存不足（该仓库现有 {available}）',
    en: 'Not enough stock of "{sku}" (this warehouse has {available})',
  },
  'sale.transition': { zh: '订单当前的状态不允许这样操作', en: 'The order cannot do this from its current state' },
  'sale.draftOnly': { zh: '只有草稿订单可以修改', en: 'Only a draft order can be edited' },
  'goods.published': { zh: '该商品已发布到商城', en: 'This product is already published to the mall' },
  'printer.snTaken': { zh: '该厂商下已有此序列号的打印机', en: 'A printer of this vendor already has this serial number' },
  'printer.disabled': { zh: '打印机已停用', en: 'The printer is disabled' },
  'warehouse.defaultDisabled': {
    zh: '默认仓库不能停用，请先将其他仓库设为默认',
    en: 'The default warehouse cannot be disabled: make another warehouse the default first',
  },
  'sale.notPrintable': {
    zh: '草稿或已取消的订单不能打印小票',
    en: 'A draft or cancelled order has no receipt to print',
  },
  'printJob.cancelState': { zh: '只有待发送或状态未知的打印任务可以取消', en: 'Only pending or unknown print jobs can be cancelled' },
  'printJob.reprintState': {
    zh: '待发送或已发送的打印任务还在进行中，结束后才能重新打印',
    en: 'A pending or sent print job is still on its way: it can be printed again once it has ended',
  },
  'sale.deleteState': { zh: '只有草稿或已取消的订单可以删除', en: 'Only draft or cancelled orders can be deleted' },
  'service.transition': { zh: '服务当前的状态不允许这样操作', en: 'The service cannot do this from its current state' },
  'release.abilityFrozen': {
    zh: '已发布的能力版本不可修改，请创建新版本',
    en: 'A published ability version is frozen: publish a new version instead',
  },
  'release.abilityNotPublished': { zh: '流程中有未发布的能力版本', en: 'The process uses an ability version that is not published' },
  'release.transition': { zh: '当前状态不允许这样操作', en: 'This cannot be done from the current state' },
  'release.selfApproval': { zh: '不能审批自己创建的任务', en: 'You cannot approve your own task' },
  'release.approverOnly': {
    zh: '只有对该项目或环境有审批权限的用户可以审批',
    en: 'Only a user with approver rights on the project or environment can approve',
  },
  'release.env.hasTasks': { zh: '该环境有 {count} 个发布任务，不能删除', en: 'The environment has {count} task(s): it cannot be deleted' },
  'release.env.hasGrants': {
    zh: '该环境有 {count} 条用户项目权限，不能删除',
    en: 'The environment has {count} user-project permission(s): it cannot be deleted',
  },
  'release.project.hasProcesses': {
    zh: '该项目有 {count} 个流程，不能删除',
    en: 'The project has {count} process(es): it cannot be deleted',
  },
  'release.project.hasTasks': { zh: '该项目有 {count} 个发布任务，不能删除', en: 'The project has {count} task(s): it cannot be deleted' },
  'release.project.hasGrants': {
    zh: '该项目有 {count} 条用户项目权限，不能删除',
    en: 'The project has {count} user-project permission(s): it cannot be deleted',
  },
  'release.process.hasTasks': { zh: '该流程有 {count} 个发布任务，不能删除', en: 'The process has {count} task(s): it cannot be deleted' },
  'release.approvedTwice': { zh: '您已审批过该任务', en: 'You have already approved this task' },
  'session.current': { zh: '这是当前会话，请使用退出登录', en: 'This is the session you are using: sign out instead' },
  'approval.decided': { zh: '该审批已结束，不能再处理', en: 'This approval has already been decided' },
  'approval.selfDecision': {
    zh: '不能审批自己提交的变更，请由他人审批',
    en: 'You cannot decide a change you committed: someone else decides it',
  },
  'certification.notPending': { zh: '只能撤回审核中的认证申请', en: 'Only a request still under review can be withdrawn' },
  'certification.reviewed': { zh: '该认证申请已处理或已撤回', en: 'This request has already been reviewed or withdrawn' },
  'certification.pending': {
    zh: '已有审核中的认证申请，请先撤回或等待结果',
    en: 'A request is already under review: withdraw it or wait for the result',
  },
  'release.noKeptRelease': { zh: '没有可回滚到的已保留版本', en: 'There is no kept earlier release to roll back to' },
  'release.enrolToken': { zh: '注册令牌无效、已过期或已使用', en: 'The enrolment token is unknown, expired or already used' },
  'activity.overlap': {
    zh: '与已启用的活动“{name}”（{id}）有相同的 SKU 且时间重叠',
    en: 'Shares a SKU and time with the enabled activity "{name}" ({id})',
  },
};

/**
 * Messages for validation rules that schemas name by key (`passwordSchema` refines with `password.weak`…),
 * so `data.fields[].message` reads as a sentence in the caller's language.
 */
export const validationMessages: Record<string, { zh: string; en: string }> = {
  'password.tooShort': { zh: '密码至少 10 个字符', en: 'The password needs at least 10 characters' },
  'password.tooLong': { zh: '密码最多 128 个字符', en: 'The password may have at most 128 characters' },
  'password.weak': {
    zh: '密码须同时包含字母、数字和特殊字符',
    en: 'The password needs letters, digits and special characters',
  },
  'password.common': {
    zh: '该密码过于常见，请换一个',
    en: 'This password is too common, please choose another',
  },
  'account.format': {
    zh: '账号只能包含字母、数字、下划线、点和短横线',
    en: 'The account may contain only letters, digits, underscore, dot and dash',
  },
  // rules the server checks beyond the schema; the web app shows them after the field's label
  'value.required': { zh: '不能为空', en: 'is required' },
  'value.tooShort': { zh: '至少 {min} 个字符', en: 'needs at least {min} characters' },
  'value.tooLong': { zh: '最多 {max} 个字符', en: 'can be at most {max} characters' },
  'value.invalid': { zh: '格式不正确', en: 'is not valid' },
  'value.atLeast': { zh: '不能小于 {min}', en: 'must be at least {min}' },
  'value.moreThan': { zh: '必须大于 {min}', en: 'must be more than {min}' },
  'value.atMost': { zh: '不能大于 {max}', en: 'must be at most {max}' },
  'value.lessThan': { zh: '必须小于 {max}', en: 'must be less than {max}' },
  'value.notText': { zh: '应为文本', en: 'must be text' },
  'value.notNumber': { zh: '应为数字', en: 'must be a number' },
  'value.notInteger': { zh: '应为整数', en: 'must be a whole number' },
  'value.notBoolean': { zh: '应为是或否（true / false）', en: 'must be true or false' },
  'value.notList': { zh: '应为列表', en: 'must be a list' },
  'value.notObject': { zh: '应为对象', en: 'must be an object' },
  'value.duplicate': { zh: '不能重复', en: 'must not repeat' },
  'value.taken': { zh: '已被使用', en: 'is already in use' },
  'value.nul': { zh: '不能包含 NUL 字符', en: 'must not contain NUL characters' },
  'value.unicode': { zh: '包含无效的 Unicode 字符（不成对的代理项）', en: 'must be valid Unicode text (it holds a lone surrogate)' },
  'page.cursorBoth': { zh: '只能给出 after 或 before 之一', en: 'give either after or before, not both' },
  'page.cursorSort': { zh: '按该列排序时不能按游标翻页', en: 'this sort cannot page by cursor' },
  'ref.missing': { zh: '所选的记录不存在或已删除', en: 'the chosen record does not exist or was deleted' },
  'ref.missingId': { zh: '编号 {id} 不存在', en: 'no record with id {id}' },
  'tree.cycle': { zh: '不能移到自己或自己的下级之下', en: 'cannot be moved under itself or one of its own descendants' },
  'sku.notOnSale': { zh: '该 SKU 不在售', en: 'this SKU is not on sale' },
  'sale.amountTooLarge': { zh: '订单金额超出上限（{max} 元）', en: 'the order amount is over the limit ({max} yuan)' },
  'product.singleSku': { zh: '没有规格的商品只能有一个 SKU', en: 'a product without specs has exactly one SKU' },
  'product.specCombination': { zh: '每个规格取一个值，按规格的顺序', en: 'one value for each spec, in order' },
  'product.specValue': { zh: '“{value}”不是规格“{spec}”的取值', en: '"{value}" is not a value of "{spec}"' },
  'product.duplicateCombination': { zh: '同一个规格组合出现了两次', en: 'the same combination appears twice' },
  'product.foreignSku': { zh: 'SKU {id} 不属于该商品', en: "SKU {id} is not one of this product's" },
  'user.grantPermission': { zh: '分配角色需要“分配角色”权限', en: 'assigning roles needs the "grant roles" permission' },
  'user.selfChange': {
    zh: '不能修改自己的角色、用户类型、状态或部门',
    en: 'you cannot change your own roles, user type, status or department',
  },
  'user.ownIdentifier': {
    zh: '自己的账号、邮箱和手机号请在“个人中心 → 安全设置”中修改（需要当前密码）',
    en: 'change your own account name, e-mail and phone under Profile → Security (it asks for your current password)',
  },
  'user.identifierHoldsMore': {
    zh: '该用户拥有的权限超过了您的，不能修改其登录或找回密码用的账号、邮箱和手机号',
    en: 'this user holds more than you do: you cannot change what they sign in or recover their password with',
  },
  'user.identifierOtherTenants': {
    zh: '该账号也属于其他租户，只有超级管理员可以修改其登录或找回密码用的信息',
    en: 'this account belongs to other tenants too: only a super admin changes what it signs in or recovers its password with',
  },
  'user.defaultRoleExceedsOwn': {
    zh: '新用户默认获得的角色授予的权限超过了您拥有的，需由管理员创建该用户',
    en: 'the role new users get by default grants more than you hold: an administrator must create this user',
  },
  'user.outsideScope': {
    zh: '新用户将不在您的数据权限范围内，请选择您范围内的部门',
    en: 'the new user would be outside your data scope: choose a department within it',
  },
  'role.exceedsOwn': { zh: '角色授予的权限不能超过您自己拥有的', en: 'a role may grant no more than you hold yourself' },
  'role.ownRole': { zh: '不能修改您自己拥有的角色', en: 'you cannot change a role you hold' },
  'role.grantsMore': { zh: '该角色授予的权限超过了您拥有的', en: 'this role grants more than you hold' },
  'dept.outsideScope': { zh: '该部门不在您的数据权限范围内', en: 'the department is outside your data scope' },
  'role.deptRequired': {
    zh: '自定义数据权限须至少选择一个部门',
    en: 'custom data scope needs at least one department',
  },
  'import.header': {
    zh: '第一行须为列标题（用户编号 / User number、姓名 / Name…）',
    en: 'the first row must hold the column headers (User number / 用户编号, Name / 姓名…)',
  },
  'import.maxRows': { zh: '最多 {max} 行', en: 'at most {max} rows' },
  'import.timeout': { zh: '导入用时过长，已创建 {created} 行', en: 'the import took too long; {created} rows were created' },
  'import.notXlsx': { zh: '不是 .xlsx 工作簿', en: 'not an .xlsx workbook' },
  'import.noHeader': { zh: '工作簿中没有带标题行的工作表', en: 'the workbook has no sheet with a header row' },
  'import.layout': { zh: '不支持的工作簿结构', en: 'unsupported workbook layout' },
  'import.tooLarge': { zh: '工作簿解压后过大', en: 'the workbook is too large once unpacked' },
  'import.saveFailed': { zh: '该行未能保存', en: 'the row could not be saved' },
  'chars.claim': { zh: '只能包含字母、数字、下划线、点、冒号或连字符', en: 'only letters, digits, _ . : or -' },
  'sso.issuer': { zh: '须为 https:// 开头的签发者地址', en: 'must be an https:// issuer address' },
  'sso.unknownRole': { zh: '本租户没有此角色：{role}', en: 'this tenant has no such role: {role}' },
  'sso.secretRequired': { zh: '启用单点登录须填写客户端密钥', en: 'a client secret is needed to turn single sign-on on' },
  'sso.discovery': { zh: '无法读取该签发者的发现文档：{reason}', en: 'the issuer’s discovery document cannot be read: {reason}' },
  'mfa.codeWrong': { zh: '动态码或恢复码不正确，或已使用过', en: 'the code is wrong, or was already used' },
  'mfa.enrolled': { zh: '已绑定验证器，请先解除', en: 'an authenticator app is enrolled already: remove it first' },
  'mfa.notEnrolled': { zh: '尚未绑定验证器', en: 'no authenticator app is enrolled' },
  'mfa.notStarted': { zh: '请先开始绑定验证器', en: 'start enrolling an authenticator app first' },
  'mfa.passkeyRefused': {
    zh: '通行密钥验证未通过：请求已过期或已使用，或该密钥不属于此账号',
    en: 'the passkey was not accepted: the request expired or was used, or the key is not one of this account',
  },
  'mfa.passkeysFull': { zh: '最多可添加 {max} 个通行密钥，请先删除一个', en: 'at most {max} passkeys: remove one first' },
  'password.wrong': { zh: '当前密码不正确', en: 'the current password is wrong' },
  'role.notHeld': { zh: '不是您在当前租户中持有的角色', en: 'is not a role you hold in this tenant' },
  'role.single': { zh: '您只有一个角色，无可切换', en: 'you hold one role only: there is nothing to switch to' },
  'role.superAdmin': { zh: '超级管理员拥有全部权限，不切换角色', en: 'a super admin may do everything and does not switch roles' },
  'token.permissionNotHeld': { zh: '包含您当前没有的权限：{permission}', en: 'includes a permission you do not hold: {permission}' },
  'token.identifier': { zh: 'API 令牌不能修改登录标识', en: 'an API token cannot change what signs an account in' },
  'token.expiryPast': { zh: '到期时间须晚于现在', en: 'the expiry must be in the future' },
  'token.expiryTooFar': { zh: '到期时间最多为一年后', en: 'the expiry may be at most one year ahead' },
  'password.same': { zh: '新密码不能与当前密码相同', en: 'the new password must differ from the current one' },
  'email.viaContact': {
    zh: '请在“安全设置”中凭当前密码修改',
    en: 'is changed under Security, with the current password',
  },
  'words.max200': { zh: '最多 200 字', en: 'at most 200 words' },
  'chars.nameOnly': { zh: '只能包含汉字、字母或数字', en: 'only Chinese characters, letters or digits' },
  'link.http': { zh: '须以 http:// 或 https:// 开头', en: 'must start with http:// or https://' },
  'link.httpOrPath': {
    zh: '须以 http:// 或 https:// 开头，或为本站路径（以一个 / 开头）',
    en: 'must be an http(s) address or a path on this site (starting with a single /)',
  },
  'chars.parameter': {
    zh: '以字母开头，只能包含字母、数字、点、下划线或短横线',
    en: 'a letter first, then letters, digits, dots, underscores or hyphens',
  },
  'key.invalid': {
    zh: '以字母开头，只能包含字母、数字、点、下划线或短横线，最多 64 个字符',
    en: 'a letter first, then letters, digits, dots, underscores or hyphens, at most 64 characters',
  },
  'variable.reserved': {
    zh: '是系统保留的变量名（PATH、HOME、SHELL、USER、IFS、LD_*、NODE_OPTIONS）',
    en: 'is a reserved variable name (PATH, HOME, SHELL, USER, IFS, LD_*, NODE_OPTIONS)',
  },
  'chars.alnum': { zh: '只能包含字母或数字', en: 'only letters or digits' },
  'chars.orgCode': {
    zh: '须为 18 位统一社会信用代码（或 9 位组织机构代码），大写字母或数字',
    en: 'an 18-character unified social credit code (or a 9-character organisation code), capital letters or digits',
  },
  'range.order': { zh: '结束日期不能早于开始日期', en: 'the end date must not be before the start date' },
  'range.max366': { zh: '时间范围最长 366 天', en: 'the range covers at most 366 days' },
  'timeZone.unknown': {
    zh: '未知的时区，请选择列表中的时区（如 Asia/Shanghai）',
    en: 'Unknown time zone: choose one from the list (such as Asia/Shanghai)',
  },
  'warehouse.defaultEnabled': { zh: '默认仓库须为正常状态', en: 'the default warehouse must be enabled' },
  'certification.reasonRequired': { zh: '驳回时须填写原因', en: 'give the reason for a rejection' },
  'rate.minAboveMax': { zh: '最小码率不能大于最大码率', en: 'the minimum bit rate must not exceed the maximum' },
  'rate.defaultOutside': { zh: '默认码率须在最小与最大码率之间', en: 'the default bit rate must lie between the minimum and the maximum' },
};

/**
 * A field error's `message` in `lang`: a key of `validationMessages` or `conflictReasons` becomes its
 * sentence (placeholders filled from `params`); any other text is returned as it is.
 */
export function fieldMessage(message: string, lang: Language, params?: Record<string, string | number>): string {
  const entry = validationMessages[message] ?? conflictReasons[message];
  if (!entry) return message;
  const text = lang === 'en-US' ? entry.en : entry.zh;
  return params ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole)) : text;
}
