/** The Reports screen's messages (keys under "reports."). */
const messages = {
  title: 'Monthly risk reports',
  intro: 'What a manager forwards to the city: the month’s incidents and how fast they were handled, the network’s risk levels, settlement bowls on a map, works near pipes, leaks and weather warnings. Made on the first of each month for the month before, or on demand; kept as made.',
  make: 'Make report',
  month: 'Month',
  made: 'Made',
  by: 'By',
  trigger: { monthly: 'First of the month', demand: 'On demand' },
  incidents: 'Incidents',
  bowls: 'Settlement bowls',
  warnings: 'Weather warnings',
  open: 'Open',
  pdf: 'PDF',
  pdfIn: { 'zh-CN': 'PDF (中文)', 'en-US': 'PDF (English)' },
  empty: 'No report yet: the first is made on the first of next month, or make one now.',
  system: 'The server',
};
export default messages;
export type ReportMessages = typeof messages;
