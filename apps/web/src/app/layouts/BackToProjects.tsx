import { Link } from 'react-router';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** The project layouts' link back to project management. */
export function BackToProjects() {
  const { t } = useTranslation();
  return (
    <Link to="/project/list" data-testid="back-to-projects" style={{ color: 'inherit', padding: '0 8px' }}>
      <ArrowLeftOutlined /> <span className="back-to-projects-label">{t('header.backToProjects')}</span>
    </Link>
  );
}
