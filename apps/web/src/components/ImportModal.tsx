import { useEffect, useState } from 'react';
import { Alert, Button, Descriptions, Form, Modal, Progress, Result, Select, Space, Steps, Table, Typography, Upload } from 'antd';
import { Tag } from './Tag.tsx';
import { InboxOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { IMPORT_EXTENSIONS, IMPORT_SRIDS, RUNNING_IMPORT_STATUSES, crsName, type Envelope, type ImportJobView, type UnknownWord, type WordField } from '@console/contract';
import { authApi } from '../api/auth.ts';
import { errorMessage } from '../api/http.ts';
import { useClickGuard } from './GuardedButton.tsx';
import { useSession } from '../stores/session.ts';
import { saveBlob } from '../utils/download.ts';

type Step = 'upload' | 'mapping' | 'job';

const STATUS_COLOR: Record<ImportJobView['status'], string> = { analysed: 'default', validating: 'processing', writing: 'processing', measuring: 'processing', succeeded: 'success', failed: 'error' };
const isRunning = (job?: ImportJobView) => !!job && RUNNING_IMPORT_STATUSES.includes(job.status);
const fileSize = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** The problems of a failed import as a CSV file the user can fix their data from. */
function downloadProblems(job: ImportJobView, header: string[]) {
  const cell = (v: unknown) => `"${String(v ?? '').replace(/"/g, '""')}"`;
  const lines = [header.map(cell).join(','), ...job.problems.map((p) => [p.row, p.featureId, p.field, p.reason].map(cell).join(','))];
  saveBlob(new Blob(['\ufeff' + lines.join('\r\n')], { type: 'text/csv' }), `${job.fileName}.problems.csv`);
}

/** What one kind of import (pipes, POI deliveries) tells the shared modal. */
export interface ImportKindProps {
  /** Query key prefix; the job and the recent list are cached under it. */
  queryKey: unknown[];
  title: string;
  api: {
    upload(file: File, onProgress: (share: number) => void): Promise<Envelope<ImportJobView>>;
    start(id: number, values: Record<string, unknown>): Promise<Envelope<ImportJobView>>;
    job(id: number): Promise<Envelope<ImportJobView>>;
    recent?(): Promise<Envelope<ImportJobView[]>>;
  };
  /** Our attributes, in order, and how each is labelled; `required` ones must be matched. */
  fields: readonly string[];
  fieldLabel(field: string): string;
  required: Record<string, string>;
  /** More form items after the mapping (defaults, write mode, project...), given the analysed file. */
  extra?: ReactNode | ((job: ImportJobView) => ReactNode);
  /** Form values to start from for an analysed file (besides the suggested mapping). */
  initialValues?(job: ImportJobView): Record<string, unknown>;
  /** The success title and detail of a finished job. */
  succeeded(job: ImportJobView): { title: string; detail: string };
  /** Queries to refetch when a job succeeds. */
  invalidate: unknown[];
  /** Our values a register word may be answered with, per word field the kind reads (build types, levels...). */
  wordOptions?: Partial<Record<WordField, { value: string; label: string }[]>>;
}

const wordKey = (w: Pick<UnknownWord, 'field' | 'word'>) => `${w.field}:${w.word}`;

/**
 * Importing a file in three steps: upload (analysed by the server), match the file's fields to
 * ours (with the server's suggestion), then follow the job to its end: everything is written, or
 * nothing and a report says which features failed and why.
 */
export function ImportModal({ open, onClose, onImported, kind }: { open: boolean; onClose: () => void; onImported: (job: ImportJobView) => void; kind: ImportKindProps }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const queryClient = useQueryClient();
  const allowClick = useClickGuard();
  const [step, setStep] = useState<Step>('upload');
  const [jobId, setJobId] = useState<number | null>(null);
  const [analysed, setAnalysed] = useState<ImportJobView | null>(null);
  const [uploading, setUploading] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  /** Answers for the words the job asked about, by field and word. */
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [form] = Form.useForm<Record<string, unknown>>();
  const settings = useQuery({ queryKey: ['settings'], queryFn: authApi.settings, staleTime: Infinity });
  const recent = useQuery({ queryKey: [...kind.queryKey, enterpriseID, 'imports'], queryFn: () => kind.api.recent!(), enabled: open && step === 'upload' && Boolean(kind.api.recent) });
  const job = useQuery({
    queryKey: [...kind.queryKey, enterpriseID, 'import', jobId],
    queryFn: () => kind.api.job(jobId!),
    enabled: jobId !== null && step === 'job',
    refetchInterval: (query) => (isRunning(query.state.data?.result) ? 800 : false),
  });
  const current = job.data?.result;

  useEffect(() => {
    if (!open) return;
    setStep('upload');
    setJobId(null);
    setAnalysed(null);
    setUploadError(null);
    setAnswers({});
  }, [open]);

  // When the job ends well, the table, filters and map show what it wrote.
  useEffect(() => {
    if (current?.status === 'succeeded') void queryClient.invalidateQueries({ queryKey: kind.invalidate });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current?.status, current?.id, queryClient]);

  const upload = async (file: File) => {
    setUploadError(null);
    setUploading(0);
    try {
      const response = await kind.api.upload(file, setUploading);
      const result = response.result;
      setAnalysed(result);
      form.resetFields();
      form.setFieldsValue({ mapping: result.suggestedMapping, srid: result.detectedSrid ?? undefined, ...kind.initialValues?.(result) });
      setStep('mapping');
    } catch (error) {
      setUploadError(errorMessage(error));
    } finally {
      setUploading(null);
    }
  };

  const start = async (words?: UnknownWord[]) => {
    if (!analysed || !allowClick()) return;
    // After the job asked for words the mapping form is not shown: its kept values are sent again.
    const values = words ? (form.getFieldsValue(true) as Record<string, unknown>) : await form.validateFields();
    setStarting(true);
    try {
      const response = await kind.api.start(analysed.id, words ? { ...values, words: words.map((w) => ({ field: w.field, word: w.word, value: answers[wordKey(w)] })) } : values);
      // The job's answer replaces the one cached from before the words were asked.
      queryClient.setQueryData([...kind.queryKey, enterpriseID, 'import', response.result.id], response);
      setJobId(response.result.id);
      setStep('job');
    } catch (error) {
      Modal.error({ title: t('dataImport.startFailed'), content: errorMessage(error) });
    } finally {
      setStarting(false);
    }
  };

  const openJob = (id: number) => {
    setJobId(id);
    setStep('job');
  };

  const fieldOptions = (analysed?.fields ?? []).map((f) => ({
    value: f.name,
    label: (
      <Space size={4}>
        <span>{f.name}</span>
        {f.samples.length > 0 && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{f.samples.join(' · ')}</Typography.Text>}
      </Space>
    ),
  }));
  const limitMb = settings.data?.result.uploadLimitMb;

  const uploadStep = (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <div data-testid="import-dragger">
      <Upload.Dragger
        accept={IMPORT_EXTENSIONS.join(',')}
        showUploadList={false}
        disabled={uploading !== null}
        beforeUpload={(file) => {
          void upload(file);
          return false;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('dataImport.drop')}</p>
        <p className="ant-upload-hint">{t('dataImport.formats', { limit: limitMb ?? '…' })}</p>
      </Upload.Dragger>
      </div>
      {uploading !== null && <Progress percent={Math.round(uploading * 100)} status="active" format={(p) => t('dataImport.uploading', { percent: p })} data-testid="import-upload-progress" />}
      {uploadError && <Alert type="error" showIcon message={t('dataImport.uploadFailed')} description={uploadError} data-testid="import-upload-error" />}
      {(recent.data?.result.length ?? 0) > 0 && (
        <>
          <Typography.Text strong>{t('dataImport.recent')}</Typography.Text>
          <Table<ImportJobView>
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={recent.data!.result.filter((j) => j.status !== 'analysed').slice(0, 5)}
            onRow={(j) => ({ onClick: () => openJob(j.id), style: { cursor: 'pointer' } })}
            columns={[
              { title: t('dataImport.file'), dataIndex: 'fileName', ellipsis: true },
              { title: t('dataImport.status'), dataIndex: 'status', render: (s: ImportJobView['status']) => <Tag color={STATUS_COLOR[s]}>{t(`dataImport.statuses.${s}`)}</Tag> },
              { title: t('dataImport.rows'), dataIndex: 'rowsRead', align: 'right' },
              { title: t('dataImport.when'), dataIndex: 'createdAt', render: (v: string) => new Date(v).toLocaleString() },
            ]}
          />
        </>
      )}
    </Space>
  );

  const unknownCrs = analysed && analysed.detectedSrid === null;
  const mappingStep = analysed && (
    <Form form={form} layout="horizontal" labelCol={{ span: 7 }} wrapperCol={{ span: 17 }} data-testid="import-mapping">
      <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('dataImport.file')}>{analysed.fileName}</Descriptions.Item>
        <Descriptions.Item label={t('dataImport.format')}>
          {t(`dataImport.formatNames.${analysed.format}`)} · {fileSize(analysed.fileSize)}
        </Descriptions.Item>
        <Descriptions.Item label={t('dataImport.geometry')}>{analysed.geometryTypes.join(', ') || '-'}</Descriptions.Item>
        <Descriptions.Item label={t('dataImport.crs')}>
          {analysed.detectedSrid !== null ? `EPSG:${analysed.detectedSrid} ${crsName(analysed.detectedSrid)}` : analysed.detectedCrs ?? <Typography.Text type="warning">{t('dataImport.crsUnknown')}</Typography.Text>}
        </Descriptions.Item>
      </Descriptions>
      {unknownCrs && <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t('dataImport.crsUnknownHint')} />}
      <Typography.Title level={5}>{t('dataImport.mapping')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('dataImport.mappingHint')}</Typography.Paragraph>
      {kind.fields.map((target) => (
        <Form.Item
          key={target}
          name={['mapping', target]}
          label={kind.fieldLabel(target)}
          rules={kind.required[target] ? [{ required: true, message: kind.required[target] }] : []}
          style={{ marginBottom: 10 }}
        >
          <Select aria-label={t('dataImport.notInFile')} allowClear showSearch placeholder={t('dataImport.notInFile')} options={fieldOptions} data-testid={`map-${target}`} />
        </Form.Item>
      ))}
      <Form.Item name="srid" label={t('dataImport.crs')} rules={unknownCrs ? [{ required: true, message: t('dataImport.crsUnknownHint') }] : []} style={{ marginBottom: 10 }}>
        <Select aria-label={t('dataImport.crsFromFile')}
          allowClear={!unknownCrs}
          showSearch
          optionFilterProp="label"
          placeholder={t('dataImport.crsFromFile')}
          options={IMPORT_SRIDS.map((srid) => ({ value: srid, label: `EPSG:${srid} ${crsName(srid)}` }))}
          data-testid="import-srid"
        />
      </Form.Item>
      {typeof kind.extra === 'function' ? kind.extra(analysed) : kind.extra}
    </Form>
  );

  const problemHeader = [t('dataImport.row'), t('dataImport.featureId'), t('dataImport.field'), t('dataImport.reason')];
  const asking = current?.status === 'analysed' && current.unknownWords.length > 0 ? current.unknownWords : null;
  const wordsStep = asking && (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="import-words">
      <Alert type="info" showIcon message={t('dataImport.words.title', { count: asking.length })} description={t('dataImport.words.hint')} />
      <Table<UnknownWord>
        size="small"
        rowKey={wordKey}
        dataSource={asking}
        pagination={{ pageSize: 8, size: 'small', hideOnSinglePage: true }}
        columns={[
          { title: t('dataImport.words.word'), dataIndex: 'word', render: (word: string) => <Typography.Text strong>{word}</Typography.Text> },
          { title: t('dataImport.words.field'), dataIndex: 'field', width: 130, render: (field: WordField) => t(`dataImport.words.fields.${field}`) },
          { title: t('dataImport.words.rows'), key: 'rows', width: 150, render: (_: unknown, w: UnknownWord) => t('dataImport.words.seen', { count: w.count, row: w.row }) },
          {
            title: t('dataImport.words.means'),
            key: 'means',
            width: 220,
            render: (_: unknown, w: UnknownWord) => (
              <Select aria-label={t('dataImport.words.pick')}
                style={{ width: '100%' }}
                placeholder={t('dataImport.words.pick')}
                value={answers[wordKey(w)]}
                onChange={(value: string) => setAnswers((a) => ({ ...a, [wordKey(w)]: value }))}
                options={kind.wordOptions?.[w.field] ?? []}
                data-testid={`import-word-${w.word}`}
              />
            ),
          },
        ]}
      />
    </Space>
  );
  const jobStep = !current ? (
    <Progress percent={0} status="active" />
  ) : isRunning(current) ? (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="import-running">
      <Typography.Text>{t(`dataImport.phases.${current.status}`, { rows: current.rowsRead.toLocaleString() })}</Typography.Text>
      <Progress percent={Math.floor(current.progress * 100)} status="active" />
      <Typography.Text type="secondary">{t('dataImport.canClose')}</Typography.Text>
    </Space>
  ) : current.status === 'succeeded' ? (
    <div data-testid="import-succeeded">
    <Result
      status="success"
      title={kind.succeeded(current).title}
      subTitle={kind.succeeded(current).detail}
      extra={
        <Button type="primary" onClick={() => onImported(current)} data-testid="import-show-on-map">
          {t('dataImport.showOnMap')}
        </Button>
      }
    />
    </div>
  ) : (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="import-failed">
      <Alert type="error" showIcon message={t('dataImport.failed', { count: current.problemCount })} description={t('dataImport.failedDetail', { file: current.fileName })} />
      <Table
        size="small"
        rowKey={(_, index) => String(index)}
        dataSource={current.problems}
        pagination={{ pageSize: 8, size: 'small', hideOnSinglePage: true }}
        columns={[
          { title: problemHeader[0], dataIndex: 'row', width: 70, render: (v: number | null) => v ?? '-' },
          { title: problemHeader[1], dataIndex: 'featureId', width: 120, render: (v: string | null) => v ?? '-' },
          { title: problemHeader[2], dataIndex: 'field', width: 150, render: (v: string | null) => v ?? '-' },
          { title: problemHeader[3], dataIndex: 'reason' },
        ]}
        data-testid="import-problems"
      />
      {current.problemCount > current.problems.length && <Typography.Text type="secondary">{t('dataImport.moreProblems', { shown: current.problems.length, count: current.problemCount })}</Typography.Text>}
      <Button onClick={() => downloadProblems(current, problemHeader)}>{t('dataImport.downloadReport')}</Button>
    </Space>
  );

  const footer =
    step === 'job' && asking ? (
      <Space>
        <Button onClick={() => setStep('mapping')}>{t('common.back')}</Button>
        <Button type="primary" loading={starting} disabled={asking.some((w) => !answers[wordKey(w)])} onClick={() => void start(asking)} data-testid="import-words-continue">
          {t('dataImport.words.continue')}
        </Button>
      </Space>
    ) : step === 'mapping' ? (
      <Space>
        <Button onClick={() => setStep('upload')}>{t('common.back')}</Button>
        <Button type="primary" loading={starting} onClick={() => void start()} data-testid="import-start">
          {t('dataImport.start')}
        </Button>
      </Space>
    ) : step === 'job' && current && !isRunning(current) ? (
      <Space>
        <Button onClick={() => setStep('upload')} data-testid="import-another">
          {t('dataImport.another')}
        </Button>
        <Button onClick={onClose}>{t('dataImport.close')}</Button>
      </Space>
    ) : (
      <Button onClick={onClose}>{t('dataImport.close')}</Button>
    );

  return (
    <Modal open={open} onCancel={onClose} title={kind.title} width={860} footer={footer} destroyOnHidden data-testid="import-modal">
      <Steps
        size="small"
        current={step === 'upload' ? 0 : step === 'mapping' || asking ? 1 : 2}
        items={[{ title: t('dataImport.steps.upload') }, { title: t('dataImport.steps.mapping') }, { title: t('dataImport.steps.import') }]}
        style={{ marginBottom: 24 }}
      />
      {step === 'upload' ? uploadStep : step === 'mapping' ? mappingStep : (wordsStep ?? jobStep)}
    </Modal>
  );
}
