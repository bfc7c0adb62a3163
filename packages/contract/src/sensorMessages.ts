import type { Language } from './envelope.ts';

/** The sensors domain's server messages (no schemas here, so the message tables stay light). */
export const SENSOR_MESSAGES = {
  'sensor.code.format': { 'en-US': 'may hold only letters, digits, "-", "_" and "." (it is part of the MQTT topic)', 'zh-CN': '只能包含字母、数字、“-”、“_”和“.”（它是 MQTT 主题的一部分）' },
  'sensor.codeTaken': { 'en-US': 'code: {code} is already a device of this enterprise', 'zh-CN': 'code：本企业已有编号为 {code} 的设备' },
  'sensor.pipeNotFound': { 'en-US': 'pipeId: {pipeId} is not a pipe of this enterprise', 'zh-CN': 'pipeId：本企业没有管线 {pipeId}' },
  'sensor.thresholdOrder': { 'en-US': 'thresholds: the alarm must lie beyond the warning ({field})', 'zh-CN': 'thresholds：报警值须比预警值更严重（{field}）' },
  'sensor.periodOrder': { 'en-US': 'to: must come after from', 'zh-CN': 'to：须晚于 from' },
  'sensor.periodTooLong': { 'en-US': 'from/to: at most {days} days at a time', 'zh-CN': 'from/to：一次最多 {days} 天' },
  'notFound.sensor': { 'en-US': 'Sensor not found in this enterprise', 'zh-CN': '本企业中没有该传感器' },
  'sensor.saved': { 'en-US': 'Sensor saved', 'zh-CN': '传感器已保存' },
  'sensor.deleted': { 'en-US': 'Sensor deleted', 'zh-CN': '传感器已删除' },
  'sensor.credentialsMade': { 'en-US': 'Credentials made: copy the password now, it is not shown again', 'zh-CN': '已生成凭据：请立即复制密码，之后不再显示' },
  'sensor.credentialsRevoked': { 'en-US': 'Credentials revoked: the device can no longer publish', 'zh-CN': '凭据已吊销：该设备不能再发布数据' },
} as const satisfies Record<string, Record<Language, string>>;
