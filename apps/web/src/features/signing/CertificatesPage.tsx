import 'mantine-datatable/styles.layer.css';
import type { SigningCertificate } from '@aporta/domain/signing';
import {
  Badge,
  Button,
  Card,
  FileInput,
  Group,
  Modal,
  NumberInput,
  PasswordInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { DataTable } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { formatDate } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { useListState } from '../../lib/useListState.ts';
import {
  useCertificateAction,
  useCertificateHolders,
  useCertificates,
  useIssueCertificate,
  useSignatureImage,
  useSigningSettings,
  useUpdateSettings,
  useUploadSeal,
} from './api.ts';

const stateColor = { VIGENTE: 'green', REVOCADO: 'red', VENCIDO: 'gray' } as const;

/** Administrador de firma: the certificates issued by the institution's CA, appearance, timestamp server and seal. */
export function CertificatesPage() {
  const { t } = useTranslation();
  const can = useCan();
  const list = useListState<SigningCertificate>('-id');
  const found = useCertificates({ ...list.pageQuery });
  const [issueOpen, issue] = useDisclosure(false);
  const [acting, setActing] = useState<{ cert: SigningCertificate; action: 'revoke' | 'renew' } | null>(null);
  return (
    <>
      <PageHeader title={t('signing.admin.title')} description={t('signing.admin.intro')} mb="md">
        {can('signature-admin', 'CREATE') && <Button onClick={issue.open}>{t('signing.admin.issue')}</Button>}
      </PageHeader>
      <QueryState query={found} list>
        <DataTable<SigningCertificate>
          withTableBorder
          borderRadius="sm"
          striped
          minHeight={160}
          records={found.data?.items ?? []}
          totalRecords={found.data?.total ?? 0}
          {...list.tableProps}
          fetching={found.isFetching && !found.data}
          noRecordsText={t('signing.admin.empty')}
          columns={[
            { accessor: 'userName', title: t('signing.admin.holder'), render: (c) => `${c.userName} (${c.userEmail})` },
            { accessor: 'position', title: t('signing.admin.position') },
            { accessor: 'notAfter', title: t('signing.admin.validUntil'), render: (c) => formatDate(c.notAfter) },
            {
              accessor: 'state',
              title: t('signing.state'),
              render: (c) => (
                <Badge color={stateColor[c.state]} variant="light" c="var(--mantine-color-text)">
                  {t(`signing.certStates.${c.state}`)}
                </Badge>
              ),
            },
            {
              accessor: 'actions',
              title: '',
              render: (c) =>
                can('signature-admin', 'UPDATE') && c.state === 'VIGENTE' ? (
                  <Group gap="xs" wrap="nowrap">
                    <Button size="xs" variant="light" onClick={() => setActing({ cert: c, action: 'renew' })}>
                      {t('signing.admin.renew')}
                    </Button>
                    <Button size="xs" variant="light" color="red" onClick={() => setActing({ cert: c, action: 'revoke' })}>
                      {t('signing.admin.revoke')}
                    </Button>
                  </Group>
                ) : null,
            },
          ]}
        />
      </QueryState>
      <IssueModal opened={issueOpen} onClose={issue.close} />
      <ActionModal key={acting ? `${acting.cert.id}-${acting.action}` : 'none'} acting={acting} onClose={() => setActing(null)} />
      <SettingsCard />
    </>
  );
}

function IssueModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const users = useCertificateHolders(opened);
  const issue = useIssueCertificate();
  const [userId, setUserId] = useState<string | null>(null);
  const [position, setPosition] = useState('');
  const [years, setYears] = useState<number>(2);
  const [pass, setPass] = useState('');
  const [pass2, setPass2] = useState('');
  const mismatch = pass2 !== '' && pass !== pass2;
  const reset = () => {
    setUserId(null);
    setPosition('');
    setPass('');
    setPass2('');
    onClose();
  };
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('common.close') }}
      opened={opened}
      onClose={reset}
      title={t('signing.admin.issue')}
      centered
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (mismatch) return;
          issue.mutate(
            { userId: Number(userId), position, years, passphrase: pass },
            {
              onSuccess: () => {
                notifySuccess(t('signing.admin.issued'));
                reset();
              },
              onError: (err) => showApiError(err),
            },
          );
        }}
      >
        <Stack>
          <Select
            label={t('signing.admin.holder')}
            searchable
            required
            data={(users.data?.items ?? []).map((u) => ({
              value: String(u.id),
              label: `${u.firstName} ${u.lastName} (${u.email})`,
            }))}
            value={userId}
            onChange={setUserId}
          />
          <TextInput
            label={t('signing.admin.position')}
            value={position}
            onChange={(e) => setPosition(e.currentTarget.value)}
            maxLength={120}
          />
          <NumberInput
            label={t('signing.admin.years')}
            min={1}
            max={5}
            value={years}
            onChange={(v) => setYears(Number(v) || 1)}
          />
          <Text size="sm" c="dimmed">
            {t('signing.admin.passphraseHelp')}
          </Text>
          <PasswordInput
            label={t('signing.passphrase')}
            required
            minLength={8}
            value={pass}
            onChange={(e) => setPass(e.currentTarget.value)}
          />
          <PasswordInput
            label={t('signing.admin.passphraseAgain')}
            required
            value={pass2}
            onChange={(e) => setPass2(e.currentTarget.value)}
            error={mismatch ? t('signing.admin.mismatch') : undefined}
          />
          <FormActions
            onCancel={reset}
            submitLabel={t('signing.admin.issue')}
            loading={issue.isPending}
            disabled={!userId || pass.length < 8 || mismatch}
          />
        </Stack>
      </form>
    </Modal>
  );
}

function ActionModal({
  acting,
  onClose,
}: {
  acting: { cert: SigningCertificate; action: 'revoke' | 'renew' } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const act = useCertificateAction();
  const [value, setValue] = useState('');
  if (!acting) return null;
  const revoke = acting.action === 'revoke';
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('common.close') }}
      opened
      onClose={onClose}
      title={t(revoke ? 'signing.admin.revokeTitle' : 'signing.admin.renewTitle', { name: acting.cert.userName })}
      centered
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          act.mutate(
            revoke
              ? { id: acting.cert.id, action: 'revoke', body: { reason: value } }
              : { id: acting.cert.id, action: 'renew', body: { passphrase: value } },
            {
              onSuccess: () => {
                notifySuccess(t(revoke ? 'signing.admin.revoked' : 'signing.admin.renewed'));
                onClose();
              },
              onError: (err) => showApiError(err),
            },
          );
        }}
      >
        <Stack>
          <Text size="sm">{t(revoke ? 'signing.admin.revokeText' : 'signing.admin.renewText')}</Text>
          {revoke ? (
            <TextInput
              label={t('signing.reason')}
              required
              value={value}
              onChange={(e) => setValue(e.currentTarget.value)}
              maxLength={500}
            />
          ) : (
            <PasswordInput
              label={t('signing.passphrase')}
              required
              minLength={8}
              value={value}
              onChange={(e) => setValue(e.currentTarget.value)}
            />
          )}
          <FormActions
            onCancel={onClose}
            submitLabel={t(revoke ? 'signing.admin.revoke' : 'signing.admin.renew')}
            color={revoke ? 'red' : undefined}
            loading={act.isPending}
            disabled={!value.trim()}
          />
        </Stack>
      </form>
    </Modal>
  );
}

function SettingsCard() {
  const { t } = useTranslation();
  const can = useCan();
  const settings = useSigningSettings();
  const update = useUpdateSettings();
  const seal = useUploadSeal();
  const image = useSignatureImage();
  const [imageFile, setImageFile] = useState<File | null>(null);
  const [form, setForm] = useState({ showName: true, showPosition: true, showDate: true, timestampUrl: '' });
  const [p12, setP12] = useState<File | null>(null);
  const [p12Pass, setP12Pass] = useState('');
  useEffect(() => {
    if (settings.data) {
      const s = settings.data;
      setForm({ showName: s.showName, showPosition: s.showPosition, showDate: s.showDate, timestampUrl: s.timestampUrl ?? '' });
    }
  }, [settings.data]);
  const mayEdit = can('signature-admin', 'UPDATE');
  return (
    <QueryState query={settings}>
      <Card withBorder mt="lg">
        <Title order={2} size="h4" mb="sm">
          {t('signing.admin.appearance')}
        </Title>
        <Stack gap="xs">
          {(['showName', 'showPosition', 'showDate'] as const).map((k) => (
            <Switch
              key={k}
              label={t(`signing.admin.${k}`)}
              checked={form[k]}
              disabled={!mayEdit}
              onChange={(e) => setForm({ ...form, [k]: e.currentTarget.checked })}
            />
          ))}
          <TextInput
            label={t('signing.admin.timestampUrl')}
            description={t('signing.admin.timestampHelp')}
            value={form.timestampUrl}
            disabled={!mayEdit}
            onChange={(e) => setForm({ ...form, timestampUrl: e.currentTarget.value })}
          />
          {mayEdit && (
            <Group>
              <Button
                loading={update.isPending}
                onClick={() =>
                  update.mutate(
                    { ...form, timestampUrl: form.timestampUrl.trim() || null },
                    { onSuccess: () => notifySuccess(t('signing.saved')), onError: (e) => showApiError(e) },
                  )
                }
              >
                {t('signing.save')}
              </Button>
            </Group>
          )}
          <Group align="end" gap="sm" mt="sm">
            <Text size="sm">
              {t('signing.admin.image')}:{' '}
              <Badge variant="light" c="var(--mantine-color-text)">
                {settings.data?.hasImage ? t('signing.admin.imageSet') : t('signing.admin.imageNone')}
              </Badge>
            </Text>
          </Group>
          {mayEdit && (
            <Group align="end" gap="sm">
              <FileInput
                label={t('signing.admin.imageFile')}
                description={t('signing.admin.imageHelp')}
                accept="image/png,image/jpeg"
                value={imageFile}
                onChange={setImageFile}
                w={300}
                clearable
              />
              <Button
                variant="light"
                disabled={!imageFile}
                loading={image.isPending}
                onClick={() =>
                  imageFile &&
                  image.mutate(imageFile, {
                    onSuccess: () => {
                      setImageFile(null);
                      notifySuccess(t('signing.admin.imageSaved'));
                    },
                    onError: notifyError,
                  })
                }
              >
                {t('signing.admin.imageUpload')}
              </Button>
              {settings.data?.hasImage && (
                <Button
                  variant="subtle"
                  color="red"
                  onClick={() =>
                    openConfirm({
                      title: t('signing.admin.imageRemove'),
                      children: <Text size="sm">{t('signing.admin.imageRemoveText')}</Text>,
                      labels: { confirm: t('signing.admin.imageRemove'), cancel: t('common.cancel') },
                      confirmProps: { color: 'red' },
                      onConfirm: () =>
                        image.mutate(null, {
                          onSuccess: () => notifySuccess(t('signing.admin.imageRemoved')),
                          onError: notifyError,
                        }),
                    })
                  }
                >
                  {t('signing.admin.imageRemove')}
                </Button>
              )}
            </Group>
          )}
        </Stack>
        <Title order={2} size="h4" mt="lg" mb="sm">
          {t('signing.admin.authorities')}
        </Title>
        <Stack gap={4}>
          {settings.data?.authorities.map((a) => (
            <Text key={a.kind} size="sm">
              <Badge variant="light" c="var(--mantine-color-text)" mr="xs">
                {t(`signing.authorityKinds.${a.kind}`)}
              </Badge>
              {a.subject} · {t('signing.admin.validUntil')} {formatDate(a.notAfter)}
            </Text>
          ))}
        </Stack>
        {mayEdit && (
          <Group mt="md" align="end">
            <FileInput label={t('signing.admin.sealFile')} accept=".p12,.pfx" value={p12} onChange={setP12} w={260} clearable />
            <PasswordInput
              label={t('signing.admin.sealPassword')}
              value={p12Pass}
              onChange={(e) => setP12Pass(e.currentTarget.value)}
              w={220}
            />
            <Button
              variant="light"
              disabled={!p12}
              loading={seal.isPending}
              onClick={() =>
                p12 &&
                seal.mutate(
                  { file: p12, password: p12Pass },
                  { onSuccess: () => notifySuccess(t('signing.admin.sealUploaded')), onError: notifyError },
                )
              }
            >
              {t('signing.admin.sealUpload')}
            </Button>
          </Group>
        )}
      </Card>
    </QueryState>
  );
}
