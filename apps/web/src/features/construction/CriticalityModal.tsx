import { useEffect, useState } from 'react';
import { InputNumber, Modal, Select, Space, Table, Typography, message } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BUILD_TYPES, CRITICALITIES, type BuildType, type Criticality, type CriticalitySettings } from '@console/contract';
import { constructionApi } from '../../api/construction.ts';
import { errorMessage } from '../../api/http.ts';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { useSession } from '../../stores/session.ts';
import { CRITICALITY_COLOR } from './siteStyle.ts';

/** The enterprise's corridor and distance x build type matrix (admins); saving judges every site again. */
export function CriticalityModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const allowClick = useClickGuard();
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: ['construction', enterpriseID, 'settings'], queryFn: constructionApi.settings, enabled: open });
  const [draft, setDraft] = useState<CriticalitySettings | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (open && current.data) setDraft(structuredClone(current.data.result));
  }, [open, current.data]);

  const save = async () => {
    if (!allowClick() || !draft) return;
    setSaving(true);
    try {
      await constructionApi.saveSettings(draft);
      message.success(t('construction.matrix.saved'));
      void queryClient.invalidateQueries({ queryKey: ['construction', enterpriseID] });
      onClose();
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };
  const edges = draft?.bandsM ?? [5, 10, 15];
  const setCell = (type: BuildType, band: number, value: Criticality) =>
    setDraft((d) => d && { ...d, matrix: { ...d.matrix, [type]: d.matrix[type].map((v, i) => (i === band ? value : v)) as [Criticality, Criticality, Criticality] } });
  return (
    <Modal open={open} title={t('construction.matrix.title')} onOk={save} confirmLoading={saving} onCancel={onClose} okText={t('common.save')} cancelText={t('common.cancel')} width={760} destroyOnHidden>
      {draft && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Space wrap>
            <span>{t('construction.matrix.corridor')}</span>
            <InputNumber min={1} max={100} value={draft.corridorM} onChange={(v) => setDraft({ ...draft, corridorM: Number(v) })} />
            <span>{t('construction.matrix.bands')}</span>
            {edges.map((edge, i) => (
              <InputNumber key={i} min={0.5} max={100} step={0.5} value={edge} onChange={(v) => setDraft({ ...draft, bandsM: draft.bandsM.map((e, j) => (j === i ? Number(v) : e)) as [number, number, number] })} style={{ width: 80 }} />
            ))}
          </Space>
          <Table
            size="small"
            pagination={false}
            rowKey="type"
            dataSource={BUILD_TYPES.map((type) => ({ type }))}
            columns={[
              { title: t('construction.columns.buildType'), dataIndex: 'type', render: (type: BuildType) => t(`construction.buildType.${type}`) },
              ...edges.map((edge, band) => ({
                title: t('construction.matrix.band', { from: band === 0 ? 0 : edges[band - 1], to: edge }),
                key: String(band),
                render: (_: unknown, row: { type: BuildType }) => (
                  <Select
                    size="small"
                    style={{ width: 100 }}
                    value={draft.matrix[row.type][band]}
                    onChange={(v) => setCell(row.type, band, v)}
                    options={CRITICALITIES.map((c) => ({ value: c, label: <span style={{ color: c === 'low' ? '#ad8b00' : CRITICALITY_COLOR[c] }}>{t(`construction.criticality.${c}`)}</span> }))}
                  />
                ),
              })),
            ]}
          />
          <Typography.Text type="secondary">{t('construction.matrix.beyond', { m: edges[2] })}</Typography.Text>
        </Space>
      )}
    </Modal>
  );
}
