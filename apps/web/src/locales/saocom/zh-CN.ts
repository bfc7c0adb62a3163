import type enUS from './en-US.ts';

/** SAOCOM 卫星平台的文案（键位于 "saocom." 之下），随显示采集的页面加载。 */
const messages: typeof enUS = {
  coveredShare: '项目覆盖比例',
  scenes: '覆盖项目的影像 {{count}} 景',
  last: '最近',
  next: '下次',
  footprints: '影像覆盖范围与项目',
  calendar: '每月影像',
  acquisitions: '影像列表',
  add: '新增影像',
  acquiredAt: '成像时间',
  satellite: '卫星',
  productId: '产品编号',
  orbit: '轨道',
  orbits: { ascending: '升轨', descending: '降轨' },
  mode: '成像模式',
  polarisation: '极化',
  polarisations: { single: '单极化', dual: '双极化', quad: '全极化' },
  statusTitle: '状态',
  status: { planned: '计划', acquired: '已成像', processing: '处理中', delivered: '已交付', failed: '失败' },
  projects: '覆盖项目',
  footprint: '覆盖范围',
  footprintRequired: '请在地图上绘制覆盖范围',
  import: {
    button: '导入影像列表',
    title: '导入影像列表',
    fields: { productId: '产品编号', satellite: '卫星', acquiredAt: '成像时间', orbitDirection: '轨道方向', mode: '成像模式', polarisation: '极化', status: '状态' },
    productIdRequired: '请选择存放产品编号的字段',
    acquiredAtRequired: '请选择存放成像时间的字段',
    defaults: '文件中缺少的值',
    defaultsHint: '文件没有给出的值，所有影像按以下设置。不带时区的时间按 UTC 读取；已有的产品编号将被更新。',
    succeeded: '已导入 {{count}} 景影像',
    succeededDetail: '{{file}}：新增 {{inserted}} 景，更新 {{updated}} 景。',
  },
  required: '必填',
};
export default messages;
