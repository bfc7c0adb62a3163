import type { IntroMessages } from './en-US.ts';

const messages: IntroMessages = {
  title: '城市地下管网风险监测',
  lead: '本系统把卫星雷达、管网数据和现场作业连成一体，帮助供水、燃气、排水企业和城市监管中心发现地下管网的风险，在爆管、路面塌陷发生之前处置。',
  flowTitle: '数据如何变成行动',
  flow: {
    satellite: { title: '卫星雷达', text: 'L 波段 SAR（SAOCOM）影像产出漏损兴趣点；InSAR 时序产出毫米级地面沉降。' },
    field: { title: '现场与协作', text: '巡检人员排查兴趣点、修复漏点；巡查与变化检测上报施工工地；易发区与气象数据以文件或服务接入。' },
    monitors: { title: '专项监测', text: '各专项把对象与管线比对：管段附近的监测点、到最近管线的距离、燃气保护范围、覆盖管网的气象预警。' },
    risk: { title: '综合风险', text: '每个管段按 7 个可能性因子和 2 个后果因子评分，落在 5×5 矩阵上：形成四色风险图和风险清单。' },
    alerts: { title: '事件与闭环', text: '规则对每个对象只发布一条预警；同一成因的预警（沉降漏斗、工地、气象预警）合并为一个事件，值班人员确认、一次派单并设定期限，处置人员反馈，审核后关闭。' },
    screen: { title: '综合监管', text: '大屏向城市监管中心实时展示全部情况。' },
  },
  modulesTitle: '各模块的作用',
  yours: '本企业',
  open: '进入',
  none: '暂无数据',
  modules: {
    pipelines: { title: '项目与管网', text: '导入管网（GeoJSON、Shapefile、KML、CSV），绘制项目范围，检索、编辑、导出管段。', figure: '{{types}} 类管网共 {{km}} 公里' },
    leak: { title: '漏损监测', text: '按批次下发 L 波段 SAR 兴趣点，巡检人员从派工到修复逐一处理，并生成排查报告。', figure: '下发 {{delivered}} 个兴趣点，发现 {{confirmed}} 处漏点，已修复 {{repaired}} 处' },
    settlement: { title: '沉降监测', text: 'InSAR 监测点按速率着色，时序曲线、管线剖面，以及按阈值排序的沉降管段。', figure: '{{points}} 个监测点，{{alarm}} 个管段超过报警阈值' },
    construction: { title: '施工风险', text: '第三方施工与管线的距离、燃气保护范围，从研判到关闭的案件与看护记录。', figure: '{{total}} 个工地，{{threats}} 个威胁未解除' },
    riskProne: { title: '易发区风险', text: '内涝点、空洞、塌陷和地质灾害区，其中的管线及整治过程。', figure: '' },
    weather: { title: '气象监测', text: '观测、预报与气象预警信号，以及每个预警影响的管网。', figure_one: '{{count}} 个预警生效中', figure_other: '{{count}} 个预警生效中' },
    pipeRisk: { title: '管道综合风险', text: '每个管段 I-IV 级风险及各因子贡献，单因子达到最高时标记，并记录等级变化。', figure: '{{segments}} 个管段中 {{high}} 个为 I、II 级' },
    alerts: { title: '预警处置', text: '各专项和人工上报的预警，按期限派单、督办并留痕处置，顶栏铃铛实时提示新预警。', figure: '{{open}} 个未闭环事件，{{overdue}} 个超期' },
    datav: { title: '监管大屏', text: '1920×1080 大屏：风险地图、各专项指标和滚动预警。', figure: '' },
  },
};

export default messages;
