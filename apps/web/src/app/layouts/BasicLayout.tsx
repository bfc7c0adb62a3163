import { useMenus } from '../../stores/menus.ts';
import { ConsoleLayout } from './ConsoleLayout.tsx';

/** Main enterprise layout: the generated menu. */
export default function BasicLayout() {
  const menus = useMenus((s) => s.menus) ?? [];
  return <ConsoleLayout menus={menus} />;
}
export { BasicLayout };
