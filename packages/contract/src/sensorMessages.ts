import type { Language } from './envelope.ts';

/** The sensors domain's server messages (no schemas here, so the message tables stay light). */
export const SENSOR_MESSAGES = {
  'sensor.code.format': { 'en-US': 'may hold only letters, digits, "-", "_" and "." (it is part of the MQTT topic)', 'zh-CN': '只能包含字母、数字、“-”、“_”和“.”（它是 MQTT 主题的一部分）' },
  'sensor.codeTaken': { 'en-US': 'code: {code} is already a device of this enterprise', 'zh-CN': 'code：本企业已有编号为 {code} 的设备' },
  'sensor.pipeNotFound': { 'en-US': 'pipeId: {pipeId} is not a pipe of this enterprise', 'zh-CN': 'pipeId：本企业没有管线 {pipeId}' },
  'sensor.kindValue': {
    'en-US': '"{value}" is not a kind of device (combustible gas, pressure, flow, well level, cover tilt, temperature)',
    'zh-CN': '“{value}”不是设备类型（可燃气体、压力、流量、液位、井盖倾斜、温度）',
  },
  'sensor.geometryType': { 'en-US': 'is a {type} where a point (the device\'s place) belongs', 'zh-CN': '是 {type}，此处需要点（设备位置）' },
  'sensor.duplicateCode': { 'en-US': 'device {code} is in the file more than once', 'zh-CN': '设备 {code} 在文件中出现了不止一次' },
  'sensor.thresholdOrder': { 'en-US': 'thresholds: the alarm must lie beyond the warning ({field})', 'zh-CN': 'thresholds：报警值须比预警值更严重（{field}）' },
  'sensor.periodOrder': { 'en-US': 'to: must come after from', 'zh-CN': 'to：须晚于 from' },
  'sensor.periodTooLong': { 'en-US': 'from/to: at most {days} days at a time', 'zh-CN': 'from/to：一次最多 {days} 天' },
  'notFound.sensor': { 'en-US': 'Sensor not found in this enterprise', 'zh-CN': '本企业中没有该传感器' },
  'sensor.saved': { 'en-US': 'Sensor saved', 'zh-CN': '传感器已保存' },
  'sensor.deleted': { 'en-US': 'Sensor deleted', 'zh-CN': '传感器已删除' },
  'sensor.credentialsMade': { 'en-US': 'Credentials made: copy the password now, it is not shown again', 'zh-CN': '已生成凭据：请立即复制密码，之后不再显示' },
  'sensor.credentialsRevoked': { 'en-US': 'Credentials revoked: the device can no longer publish', 'zh-CN': '凭据已吊销：该设备不能再发布数据' },
} as const satisfies Record<string, Record<Language, string>>;
