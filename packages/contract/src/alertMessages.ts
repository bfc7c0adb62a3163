import type { Language } from './envelope.ts';

/** The alert loop's server messages, and the text of the SMS an assignee gets. */
export const ALERT_MESSAGES = {
  'alerts.transition': { 'en-US': 'incident {code} is {state} and cannot be {action}', 'zh-CN': '事件 {code} 当前为“{state}”，不能{action}' },
  'alerts.assignee': { 'en-US': 'assigneeId: the assignee must be an active member of this enterprise', 'zh-CN': 'assigneeId：处置人须为本企业的有效成员' },
  'alerts.assigneeOnly': { 'en-US': 'Only the assignee or an administrator can take this step', 'zh-CN': '只有处置人或管理员可以执行此步骤' },
  'alerts.stillOpen': { 'en-US': 'Another open alert of the same rule already stands for this object ({code})', 'zh-CN': '该对象已有同一规则的未关闭预警（{code}）' },
  'alerts.photos': { 'en-US': 'file: a timeline entry holds at most {max} photos', 'zh-CN': 'file：每条处置记录最多 {max} 张照片' },
  'alerts.photoOwner': { 'en-US': 'Photos are added only to your own timeline entries', 'zh-CN': '只能给自己的处置记录添加照片' },
  'alerts.raised': { 'en-US': 'Alert raised', 'zh-CN': '已发布预警' },
  'alerts.saved': { 'en-US': 'Saved', 'zh-CN': '已保存' },
  'alerts.sms': {
    'en-US': '[Pipeline risk] Level {level} incident {code} ({subject}, {members} alerts) is assigned to you, due {deadline}. Open the console to handle it.',
    'zh-CN': '【管网风险】{level}级事件 {code}（{subject}，{members} 条预警）已派发给您，请于 {deadline} 前处置。',
  },
  'alerts.smsEscalated': {
    'en-US': '[Pipeline risk] Incident {code} ({subject}) assigned to you has risen to level {level}, due {deadline}. Open the console to handle it.',
    'zh-CN': '【管网风险】您处置的事件 {code}（{subject}）已升级为{level}级，请于 {deadline} 前处置。',
  },
  'alerts.idempotencyKey': { 'en-US': 'Idempotency-Key: must be 8 to 100 letters, digits or _ : . -', 'zh-CN': 'Idempotency-Key：须为 8 到 100 位字母、数字或 _ : . -' },
  'channels.host': {
    'en-US': 'webhook: the robot must be on {hosts} (the hosts this server sends to)',
    'zh-CN': 'webhook：机器人地址须在 {hosts} 上（本服务器允许发送的主机）',
  },
  'channels.noSmtp': { 'en-US': 'kind: e-mail is not set up on this server (SMTP_URL)', 'zh-CN': 'kind：本服务器未配置邮件发送（SMTP_URL）' },
  'channels.saved': { 'en-US': 'Channel saved', 'zh-CN': '已保存通知渠道' },
  'channels.deleted': { 'en-US': 'Channel deleted', 'zh-CN': '已删除通知渠道' },
  'channels.message': {
    'en-US': '{event}: level {level} incident {code}, {title} ({members} alerts). {state}. Open: {link}',
    'zh-CN': '{event}：{level}级事件 {code}，{title}（{members} 条预警），{state}。查看：{link}',
  },
  'channels.test': { 'en-US': 'Test message from the pipeline risk console: this channel works.', 'zh-CN': '管网风险监测控制台测试消息：该渠道可正常接收。' },
  'incident.kind.bowl': { 'en-US': 'Settlement bowl', 'zh-CN': '沉降漏斗' },
  'incident.kind.site': { 'en-US': 'Construction site', 'zh-CN': '施工工地' },
  'incident.kind.warning': { 'en-US': 'Weather warning', 'zh-CN': '气象预警' },
  'incident.kind.poi': { 'en-US': 'Leak', 'zh-CN': '漏损点' },
  'incident.kind.riskRun': { 'en-US': 'Pipe risk rose', 'zh-CN': '管段风险升级' },
  'incident.kind.manual': { 'en-US': 'Raised by hand', 'zh-CN': '人工上报' },
  'incident.event.raised': { 'en-US': 'New incident', 'zh-CN': '新事件' },
  'incident.event.escalated': { 'en-US': 'Incident risen', 'zh-CN': '事件升级' },
  'incident.event.dispatched': { 'en-US': 'Incident dispatched', 'zh-CN': '事件已派单' },
  'incident.event.test': { 'en-US': 'Test', 'zh-CN': '测试' },
  'notFound.channel': { 'en-US': 'Channel not found in this enterprise', 'zh-CN': '本企业中没有该通知渠道' },
  'notFound.alert': { 'en-US': 'Alert not found in this enterprise', 'zh-CN': '本企业中没有该预警' },
  'notFound.incident': { 'en-US': 'Incident not found in this enterprise', 'zh-CN': '本企业中没有该事件' },
  'notFound.alertEvent': { 'en-US': 'Timeline entry not found for this incident', 'zh-CN': '该事件没有这条处置记录' },
  'notFound.alertPhoto': { 'en-US': 'Photo not found in this enterprise', 'zh-CN': '本企业中没有该照片' },
} as const satisfies Record<string, Record<Language, string>>;
