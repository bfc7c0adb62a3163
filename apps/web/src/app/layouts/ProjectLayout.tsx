import { ProjectOutlined } from '@ant-design/icons';
import { ConsoleLayout } from './ConsoleLayout.tsx';
import { BackToProjects } from './BackToProjects.tsx';

const PROJECT_MENU = [{ path: '/project/info', name: 'menu.projectInfo', icon: <ProjectOutlined /> }];

/** Project layout: one project's pages, with a link back to project management. */
export default function ProjectLayout() {
  return <ConsoleLayout menus={PROJECT_MENU} headerExtra={<BackToProjects />} />;
}
export { ProjectLayout };
