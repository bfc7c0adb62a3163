import type { Language } from './envelope.ts';

/**
 * Messages the server sends and custom validation messages of the contract, in both languages.
 * Keys are stable; the console may show a server message as is (it already comes in the
 * request's language).
 */
export const MESSAGES = {
  ok: { 'en-US': 'OK', 'zh-CN': '操作成功' },
  'login.failed': { 'en-US': 'wrong username or password', 'zh-CN': '账户名或密码错误' },
  'login.locked': {
    'en-US': 'Too many failed sign-in attempts, try again in {minutes} minute(s)',
    'zh-CN': '登录失败次数过多，请 {minutes} 分钟后再试',
  },
  'auth.unauthorized': { 'en-US': 'Authorization verification failed', 'zh-CN': '授权验证失败' },
  'auth.forbidden': { 'en-US': 'You have no permission to do this', 'zh-CN': '您没有执行此操作的权限' },
  'auth.platformAdminOnly': {
    'en-US': 'Only a platform administrator may do this',
    'zh-CN': '只有平台管理员可以执行此操作',
  },
  'enterprise.notMember': {
    'en-US': 'You are not an active member of this enterprise',
    'zh-CN': '您不是该企业的有效成员',
  },
  'enterprise.notVerified': { 'en-US': 'This enterprise is not verified yet', 'zh-CN': '该企业尚未通过审核' },
  'enterprise.headerInvalid': {
    'en-US': 'Enterprise-Id header: must be a positive integer',
    'zh-CN': 'Enterprise-Id 请求头：必须是正整数',
  },
  'enterprise.none': { 'en-US': 'You have not joined any enterprise', 'zh-CN': '您尚未加入任何企业' },
  'enterprise.registered': {
    'en-US': 'Enterprise registered, waiting for verification',
    'zh-CN': '企业已注册，等待平台审核',
  },
  'enterprise.applied': {
    'en-US': 'Application sent, waiting for the enterprise administrator',
    'zh-CN': '申请已提交，等待企业管理员审批',
  },
  'enterprise.alreadyMember': {
    'en-US': 'enterpriseId: you are already a member of this enterprise',
    'zh-CN': 'enterpriseId：您已是该企业成员',
  },
  'enterprise.alreadyApplied': {
    'en-US': 'enterpriseId: you have already applied to join this enterprise',
    'zh-CN': 'enterpriseId：您已申请加入该企业，请等待审批',
  },
  'enterprise.lastAdmin': {
    'en-US': 'userId: an enterprise must keep at least one administrator',
    'zh-CN': 'userId：企业至少需要保留一名管理员',
  },
  'enterprise.notPending': { 'en-US': 'This request has already been decided', 'zh-CN': '该申请已处理' },
  'password.changed': { 'en-US': 'Password changed, please sign in again', 'zh-CN': '密码修改成功，请重新登录' },
  'password.oldWrong': { 'en-US': 'passwordOld: the old password is wrong', 'zh-CN': 'passwordOld：原密码错误' },
  'password.reset': { 'en-US': 'Password reset, please sign in', 'zh-CN': '密码已重置，请登录' },
  'sms.sent': { 'en-US': 'Verification code sent', 'zh-CN': '验证码已发送' },
  'sms.tooSoon': {
    'en-US': 'phone: a code was sent less than a minute ago, try again in {seconds} s',
    'zh-CN': 'phone：验证码发送过于频繁，请 {seconds} 秒后再试',
  },
  'sms.invalid': {
    'en-US': 'smsCode: the verification code is wrong or has expired',
    'zh-CN': 'smsCode：验证码错误或已过期',
  },
  'sms.unknownPhone': {
    'en-US': 'phone: no account uses this phone number',
    'zh-CN': 'phone：该手机号未注册',
  },
  'register.done': { 'en-US': 'Account registered', 'zh-CN': '注册成功' },
  'conflict.username': { 'en-US': 'username: this username is already taken', 'zh-CN': 'username：用户名已被占用' },
  'conflict.phone': { 'en-US': 'phone: this phone number is already registered', 'zh-CN': 'phone：手机号已被注册' },
  'conflict.enterpriseName': {
    'en-US': 'enterpriseName: an enterprise with this name already exists',
    'zh-CN': 'enterpriseName：企业名称已存在',
  },
  'conflict.creditCode': {
    'en-US': 'creditCode: an enterprise with this credit code already exists',
    'zh-CN': 'creditCode：统一社会信用代码已被注册',
  },
  'notFound.route': { 'en-US': 'No such API route', 'zh-CN': '接口不存在' },
  'notFound.enterprise': { 'en-US': 'Enterprise not found', 'zh-CN': '企业不存在' },
  'notFound.member': { 'en-US': 'Member not found in this enterprise', 'zh-CN': '该企业中没有此成员' },
  'notFound.joinRequest': { 'en-US': 'Join request not found', 'zh-CN': '加入申请不存在' },
  'error.internal': { 'en-US': 'Internal server error', 'zh-CN': '服务器内部错误' },
  'error.tooLarge': { 'en-US': 'The request body is too large', 'zh-CN': '请求内容过大' },
  'error.badBody': { 'en-US': 'The request body cannot be read', 'zh-CN': '请求内容无法解析' },
  'field.required': { 'en-US': 'is required', 'zh-CN': '不能为空' },
  'field.number': { 'en-US': 'must be a number', 'zh-CN': '必须是数字' },
  'field.username.format': {
    'en-US': '3 to 32 letters, digits or _ . @ -',
    'zh-CN': '须为 3 到 32 位字母、数字或 _ . @ -',
  },
  'field.password.tooShort': { 'en-US': 'must have at least 6 characters', 'zh-CN': '至少 6 位' },
  'field.password.tooLong': { 'en-US': 'must have at most 32 characters', 'zh-CN': '最多 32 位' },
  'field.password.lettersDigits': { 'en-US': 'only letters or digits are allowed', 'zh-CN': '只能包含字母或数字' },
  'field.phone.format': { 'en-US': 'is not a valid mobile number', 'zh-CN': '手机号格式不正确' },
  'field.smsCode.format': { 'en-US': 'must be 6 digits', 'zh-CN': '须为 6 位数字' },
  'field.email.format': { 'en-US': 'is not a valid e-mail address', 'zh-CN': '邮箱格式不正确' },
  'field.creditCode.format': {
    'en-US': 'is not a valid unified social credit code',
    'zh-CN': '不是有效的统一社会信用代码',
  },
  'field.resolutions.decreasing': { 'en-US': 'must be strictly decreasing', 'zh-CN': '必须严格递减' },
  'field.resolutions.positive': { 'en-US': 'must all be greater than 0', 'zh-CN': '必须全部大于 0' },
  'field.extent.order': {
    'en-US': 'must be [minX, minY, maxX, maxY] with min below max',
    'zh-CN': '须为 [minX, minY, maxX, maxY]，且最小值小于最大值',
  },
  'field.serviceUrl.required': {
    'en-US': 'is required for this service type',
    'zh-CN': '该服务类型必须填写服务地址',
  },
  'field.serviceUrl.format': { 'en-US': 'must be an http(s) URL or a path starting with /', 'zh-CN': '须为 http(s) 地址或以 / 开头的路径' },
  'field.date': { 'en-US': 'must be a date like 2026-01-31', 'zh-CN': '须为日期，如 2026-01-31' },
  'field.code.format': { 'en-US': '1 to 40 letters, digits, _ or -', 'zh-CN': '须为 1 到 40 位字母、数字、_ 或 -' },
  'field.endDate.beforeStart': { 'en-US': 'must not be before the start date', 'zh-CN': '不能早于开始日期' },
  'field.geometry.position': { 'en-US': 'a position needs longitude and latitude', 'zh-CN': '坐标须包含经度和纬度' },
  'field.geometry.outOfRange': {
    'en-US': 'coordinates out of range (longitude -180..180, latitude -90..90)',
    'zh-CN': '坐标超出范围（经度 -180..180，纬度 -90..90）',
  },
  'field.geometry.lineTooShort': { 'en-US': 'a line needs at least 2 positions', 'zh-CN': '线至少需要 2 个坐标点' },
  'field.geometry.ringTooShort': { 'en-US': 'a polygon ring needs at least 4 positions', 'zh-CN': '多边形环至少需要 4 个坐标点' },
  'field.geometry.ringNotClosed': { 'en-US': 'a polygon ring must end where it starts', 'zh-CN': '多边形环的首尾坐标必须相同' },
  'conflict.projectCode': { 'en-US': 'code: another project of this enterprise has this code', 'zh-CN': 'code：本企业已有相同编号的项目' },
  'conflict.pipeId': { 'en-US': 'pipeId: another pipe of this enterprise has this id', 'zh-CN': 'pipeId：本企业已有相同编号的管段' },
  'notFound.pipe': { 'en-US': 'Pipe not found in this enterprise', 'zh-CN': '本企业中没有该管段' },
  'notFound.project': { 'en-US': 'Project not found in this enterprise', 'zh-CN': '本企业中没有该项目' },
  'mapSettings.saved': { 'en-US': 'Map settings saved', 'zh-CN': '地图设置已保存' },
  'field.tile': { 'en-US': 'z/x/y: no such tile in this grid', 'zh-CN': 'z/x/y：该切片方案中没有此切片' },
  'field.srid': { 'en-US': 'must be 4326 or 3857', 'zh-CN': '只能是 4326 或 3857' },
} as const satisfies Record<string, Record<Language, string>>;

export type MessageKey = keyof typeof MESSAGES;

export function isMessageKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(MESSAGES, key);
}

/** The message in `lang`, with {name} placeholders filled from `params`. */
export function translate(key: MessageKey, lang: Language, params: Record<string, string | number> = {}): string {
  return MESSAGES[key][lang].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}
