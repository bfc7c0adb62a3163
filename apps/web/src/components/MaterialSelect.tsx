import { Select, type SelectProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { pipelineApi } from '../api/pipelines.ts';
import { useSession } from '../stores/session.ts';
import { KNOWN_MATERIALS, materialLabel } from '../utils/format.ts';

/**
 * Picks a pipe material by its name in the user's language, searchable: the materials of the
 * enterprise's network (plus the common ones when `withKnown`); the stored value stays the code.
 */
export function MaterialSelect({ withKnown = false, ...props }: Omit<SelectProps<string>, 'options'> & { withKnown?: boolean }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const facets = useQuery({ queryKey: ['pipelines', enterpriseID, 'facets'], queryFn: pipelineApi.facets });
  const materials = [...new Set([...(facets.data?.result.materials ?? []), ...(withKnown ? KNOWN_MATERIALS : [])])];
  return <Select<string> allowClear showSearch optionFilterProp="label" {...props} options={materials.map((m) => ({ value: m, label: materialLabel(t, m) }))} />;
}
