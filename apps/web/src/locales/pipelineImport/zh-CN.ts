import type enUS from './en-US.ts';

/** 管网导入的文案（键位于 "pipelineImport." 之下），随导入对话框加载。 */
const messages: typeof enUS = {
  title: '导入管网',
  fields: {
    pipeId: '管段编号',
    networkType: '管网类型',
    material: '材质',
    diameterMm: '管径（mm）',
    pressureClass: '压力等级',
    installYear: '敷设年份',
    depthM: '埋深（m）',
    owner: '权属单位',
  },
  pipeIdRequired: '请选择存放管段编号的字段',
  defaultNetwork: '默认管网类型',
  defaultNetworkHint: '用于文件中没有管网类型的要素。',
  mode: '写入方式',
  modes: { append: '新增', upsert: '新增或更新', replace: '替换整个管网' },
  modeHints: {
    append: '只新增管段；编号已存在视为错误',
    upsert: '编号已存在的管段将被更新',
    replace: '文件成为完整管网；不在文件中的管段将被删除',
  },
  succeeded: '已导入 {{count, number}} 条管段',
  succeededDetail: '{{file}}：新增 {{inserted, number}} 条，更新 {{updated, number}} 条，删除 {{deleted, number}} 条。',
};
export default messages;
