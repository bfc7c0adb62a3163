import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SelectLang } from '../../components/SelectLang.tsx';
import './user.css';

/** Login layout: logo, product title and language selector around the sign-in pages. */
export function UserLayout() {
  const { t } = useTranslation();
  return (
    <div className="user-layout" data-testid="user-layout">
      <div className="user-layout-lang">
        <SelectLang />
      </div>
      <div className="user-layout-content">
        <div className="user-layout-top">
          <div className="user-layout-header">
            <img src="/logo.svg" className="user-layout-logo" alt="" />
            <h1 className="user-layout-title" data-testid="product-title">
              {t('app.title')}
            </h1>
          </div>
          <div className="user-layout-desc">{t('app.description')}</div>
        </div>
        <div className="user-layout-main">
          <Outlet />
        </div>
      </div>
    </div>
  );
}
export default UserLayout;
