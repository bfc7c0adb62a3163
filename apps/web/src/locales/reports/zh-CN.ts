import type { ReportMessages } from './en-US.ts';

const messages: ReportMessages = {
  title: '月度风险报告',
  intro: '供管理者报送主管部门：当月事件及处置时长、管网风险等级、沉降漏斗分布图、管道周边施工、漏损与气象预警。每月 1 日自动生成上月报告，也可随时生成；生成后原样留存。',
  make: '生成报告',
  month: '月份',
  made: '生成时间',
  by: '生成人',
  trigger: { monthly: '每月自动', demand: '按需生成' },
  incidents: '事件',
  bowls: '沉降漏斗',
  warnings: '气象预警',
  open: '查看',
  pdf: 'PDF',
  pdfIn: { 'zh-CN': 'PDF（中文）', 'en-US': 'PDF（English）' },
  empty: '暂无报告：下月 1 日将自动生成首份报告，也可现在生成。',
  system: '系统',
};
export default messages;
