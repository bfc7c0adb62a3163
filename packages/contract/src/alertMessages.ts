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
  'notFound.alert': { 'en-US': 'Alert not found in this enterprise', 'zh-CN': '本企业中没有该预警' },
  'notFound.incident': { 'en-US': 'Incident not found in this enterprise', 'zh-CN': '本企业中没有该事件' },
  'notFound.alertEvent': { 'en-US': 'Timeline entry not found for this incident', 'zh-CN': '该事件没有这条处置记录' },
  'notFound.alertPhoto': { 'en-US': 'Photo not found in this enterprise', 'zh-CN': '本企业中没有该照片' },
} as const satisfies Record<string, Record<Language, string>>;
