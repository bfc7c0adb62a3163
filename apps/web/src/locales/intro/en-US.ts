/** The product introduction's messages (keys under "intro."), loaded with the page. */
const messages = {
  title: 'Urban underground pipeline risk monitoring',
  lead: 'The console brings satellite radar, the pipe network and field work together, so a utility or a city supervision centre finds the risk in its buried networks and acts on it before a pipe bursts or a road collapses.',
  flowTitle: 'How data becomes action',
  flow: {
    satellite: { title: 'Satellite radar', text: 'L-band SAR (SAOCOM) acquisitions give leak points of interest; InSAR time series give ground settlement, millimetre by millimetre.' },
    field: { title: 'Field and partners', text: 'Crews investigate POIs and repair leaks; patrols and change detection report construction sites; risk-prone areas and weather arrive as files or from a service.' },
    monitors: { title: 'Monitors', text: 'Each monitor measures its objects against the pipes: points near a segment, distance to the nearest pipe, gas protection ranges, warnings over the network.' },
    risk: { title: 'Composite risk', text: 'Every segment is scored on seven likelihood and two consequence factors and placed on the 5×5 matrix: the four-colour risk map and the risk list.' },
    alerts: { title: 'Incidents and closure', text: 'Rules raise one alert per object; alerts of one cause (a bowl, a site, a warning) make one incident, which the duty officer confirms and dispatches once with a deadline; the crew handles it and it is reviewed and closed.' },
    screen: { title: 'Supervision', text: 'The big screen shows the city centre everything at once, live.' },
  },
  modulesTitle: 'What each module does',
  yours: 'In your enterprise',
  open: 'Open',
  none: 'No data yet',
  modules: {
    pipelines: { title: 'Projects and pipe network', text: 'Import the network (GeoJSON, Shapefile, KML, CSV), draw project areas, search and edit segments, export them.', figure: '{{km}} km of pipes in {{types}} networks' },
    leak: { title: 'Leak detection', text: 'L-band SAR points of interest per delivery, worked by crews from assignment to repair, with the survey report.', figure: '{{delivered}} POIs delivered, {{confirmed}} leaks found, {{repaired}} repaired' },
    settlement: { title: 'Settlement monitoring', text: 'InSAR points coloured by velocity, time series, pipe profiles, and the segments on moving ground ranked against thresholds.', figure: '{{points}} points, {{alarm}} segments past their alarm' },
    construction: { title: 'Construction risk', text: 'Third-party works measured against the pipes, gas protection ranges, the case from review to closure with the watch log.', figure: '{{total}} sites, {{threats}} open threats' },
    riskProne: { title: 'Risk-prone areas', text: 'Waterlogging points, voids, collapses and hazard zones with the pipes inside them, and their remediation.', figure: '' },
    weather: { title: 'Weather', text: 'Observations, forecasts and CMA warning signals, and what each warning touches on the network.', figure_one: '{{count}} warning in force', figure_other: '{{count}} warnings in force' },
    pipeRisk: { title: 'Composite pipe risk', text: 'A level I-IV for every segment with each factor\'s contribution, a flag where one factor is at its maximum, and its history.', figure: '{{high}} segments at level I or II of {{segments}}' },
    alerts: { title: 'Alerts', text: 'Alerts from every monitor and by hand, worked to closure with deadlines, supervision and a timeline; the bell shows new ones live.', figure: '{{open}} open incidents, {{overdue}} overdue' },
    datav: { title: 'Big screen', text: 'A 1920×1080 wall screen with the risk map, every monitor\'s figures and the rolling alert board.', figure: '' },
  },
};

export type IntroMessages = typeof messages;
export default messages;
