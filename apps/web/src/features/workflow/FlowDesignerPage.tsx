import '@xyflow/react/dist/style.css';
import type { ErrorDetail } from '@aporta/domain';
import {
  conditionOps,
  type FlowDefinition,
  type FlowState,
  type FlowTransition,
  flowActionKinds,
  flowProblems,
  isFinalFlowState,
} from '@aporta/domain/workflow';
import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Card,
  Checkbox,
  Grid,
  Group,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  useComputedColorScheme,
} from '@mantine/core';
import { IconCheck, IconDeviceFloppy, IconPlus, IconSend, IconTrash } from '@tabler/icons-react';
import {
  applyNodeChanges,
  Background,
  Controls,
  type Edge,
  MarkerType,
  type Node,
  type NodeChange,
  ReactFlow,
} from '@xyflow/react';
import type { TFunction } from 'i18next';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { ApiError } from '../../lib/api.ts';
import { openConfirm } from '../../lib/confirm.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { messageText } from '../../lib/server-messages.ts';
import { useCan } from '../../lib/useCan.ts';
import { useFlow, useFlowOptions, useFormVersionAction, usePublishFlow, useSaveFlow, useValidateFlow } from './api.ts';
import { moment, VersionBadge } from './components.tsx';

const keyOf = (label: string, taken: string[]) => {
  const base =
    label
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .replace(/^[^A-Z]+/, '')
      .slice(0, 36) || 'ESTADO';
  let key = base;
  for (let i = 2; taken.includes(key); i++) key = `${base}_${i}`;
  return key;
};

const emptyDef = (t: TFunction): FlowDefinition => ({
  initial: 'RECIBIDA',
  states: [
    { key: 'RECIBIDA', label: t('workflow.designer.initialReceived'), editable: true, x: 0, y: 80 },
    { key: 'RESUELTA', label: t('workflow.designer.initialResolved'), x: 300, y: 80 },
  ],
  transitions: [],
});

type Selection = { kind: 'state'; key: string } | { kind: 'transition'; key: string } | null;

/** `/flow/new` and `/flow/:id`: the visual designer of a flow (states as nodes, transitions as edges). */
export function FlowDesignerPage() {
  const params = useParams();
  const id = params.id && params.id !== 'new' ? Number(params.id) : null;
  const flow = useFlow(id);
  const options = useFlowOptions();
  return (
    <QueryState query={id ? [flow, options] : [options]}>
      {() => <Designer key={flow.data?.latestVersion ?? 0} id={id} />}
    </QueryState>
  );
}

function Designer({ id }: { id: number | null }) {
  const { t } = useTranslation();
  // React Flow draws its nodes, edges and controls in its own colours: it follows the page's mode.
  const colorScheme = useComputedColorScheme('light');
  const navigate = useNavigate();
  const can = useCan();
  const flow = useFlow(id);
  const options = useFlowOptions().data!;
  const latest = flow.data?.versions[0];
  const [title, setTitle] = useState(flow.data?.title ?? '');
  const [description, setDescription] = useState(flow.data?.description ?? '');
  const [formId, setFormId] = useState<number | null>(flow.data?.formId ?? null);
  const [def, setDef] = useState<FlowDefinition>(() => latest?.definition ?? emptyDef(t));
  const [sel, setSel] = useState<Selection>(null);
  const [problems, setProblems] = useState<ErrorDetail[] | null>(null);
  const [newState, setNewState] = useState('');
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const save = useSaveFlow();
  const publish = usePublishFlow();
  const publishForm = useFormVersionAction();
  const validate = useValidateFlow();
  // Any change to the definition makes the last validation stale.
  const [checkedDef, setCheckedDef] = useState(def);
  if (checkedDef !== def) {
    setCheckedDef(def);
    if (problems) setProblems(null);
  }

  const roleNames = useMemo(() => new Map(options.roles.map((r) => [r.id, r.name])), [options.roles]);
  const roleName = (x: FlowTransition) =>
    x.requester ? t('workflow.designer.requester') : (roleNames.get(x.roleId ?? 0) ?? t('workflow.designer.noRole'));
  // React Flow keeps what it measured on each node: the nodes live in their own state, rebuilt from the
  // definition (labels, added and removed states) while keeping what React Flow knows of each.
  const [nodes, setNodes] = useState<Node[]>([]);
  useEffect(() => {
    setNodes((prev) =>
      def.states.map((s, i) => {
        const old = prev.find((n) => n.id === s.key);
        const final = isFinalFlowState(def, s.key);
        return {
          ...(old ?? {}),
          id: s.key,
          position: old?.position ?? { x: s.x ?? i * 220, y: s.y ?? 80 },
          data: { label: `${s.key === def.initial ? '▶ ' : ''}${s.label}${final ? ' ■' : ''}` },
          style: final ? { borderWidth: 3 } : undefined,
        };
      }),
    );
  }, [def]);
  const edges: Edge[] = useMemo(
    () =>
      def.transitions.map((x) => ({
        id: x.key,
        source: x.from,
        target: x.to,
        label: `${x.label} (${x.requester ? t('workflow.designer.requester') : (roleNames.get(x.roleId ?? 0) ?? t('workflow.designer.noRole'))})`,
        markerEnd: { type: MarkerType.ArrowClosed },
        selected: sel?.kind === 'transition' && sel.key === x.key,
      })),
    [def, sel, roleNames, t],
  );
  const onNodesChange = (changes: NodeChange[]) => setNodes((ns) => applyNodeChanges(changes, ns));
  const onNodeDragStop = (node: Node) =>
    setDef((d) => ({
      ...d,
      states: d.states.map((s) =>
        s.key === node.id ? { ...s, x: Math.round(node.position.x), y: Math.round(node.position.y) } : s,
      ),
    }));
  const addTransition = (a: string, b: string) => {
    const key = keyOf(
      `${a}_A_${b}`,
      def.transitions.map((x) => x.key),
    );
    const x: FlowTransition = {
      key,
      from: a,
      to: b,
      label: t('workflow.designer.defaultTransition'),
      roleId: options.roles[0]?.id ?? null,
    };
    setDef((d) => ({ ...d, transitions: [...d.transitions, x] }));
    setSel({ kind: 'transition', key });
  };
  const addState = () => {
    const label = newState.trim();
    if (!label) return;
    const key = keyOf(
      label,
      def.states.map((s) => s.key),
    );
    const maxX = Math.max(0, ...def.states.map((s) => s.x ?? 0));
    setDef((d) => ({ ...d, states: [...d.states, { key, label, x: maxX + 220, y: 200 }] }));
    setNewState('');
    setSel({ kind: 'state', key });
  };
  const state = sel?.kind === 'state' ? def.states.find((s) => s.key === sel.key) : undefined;
  const transition = sel?.kind === 'transition' ? def.transitions.find((x) => x.key === sel.key) : undefined;
  const patchState = (patch: Partial<FlowState>) =>
    setDef((d) => ({ ...d, states: d.states.map((s) => (s.key === state?.key ? { ...s, ...patch } : s)) }));
  const patchTransition = (patch: Partial<FlowTransition>) =>
    setDef((d) => ({ ...d, transitions: d.transitions.map((x) => (x.key === transition?.key ? { ...x, ...patch } : x)) }));
  const chosenForm = options.forms.find((f) => f.id === formId);
  const formFields = chosenForm?.fields ?? [];
  const localProblems = flowProblems(def, {
    formFields: formId ? formFields.map((f) => f.name) : null,
    moduleActions: options.moduleActions.map((a) => a.key),
    roleIds: options.roles.map((r) => r.id),
  });
  const mayEdit = id ? can('flow', 'UPDATE') : can('flow', 'CREATE');

  const onSave = () => {
    if (!formId) return notifyError(new Error(t('workflow.designer.chooseForm')));
    save.mutate(
      { id, data: { title, description: description || undefined, formId, definition: def } },
      {
        onSuccess: (f) => {
          notifySuccess(t('workflow.designer.saved', { version: f.latestVersion }));
          if (!id) navigate(`/flow/${f.id}`, { replace: true });
        },
        onError: (err) => {
          if (err instanceof ApiError && err.details.length) setProblems(err.details);
          notifyError(err);
        },
      },
    );
  };
  const onValidate = () => {
    if (!formId) return setProblems([{ path: 'formId', message: t('workflow.designer.chooseForm') }]);
    validate.mutate({ formId, definition: def }, { onSuccess: (r) => setProblems(r.problems), onError: notifyError });
  };
  const onPublish = () => {
    if (!id || !flow.data) return;
    const version = flow.data.latestVersion;
    openConfirm({
      title: t('workflow.designer.publishTitle', { version }),
      children: <Text size="sm">{t('workflow.designer.publishText')}</Text>,
      labels: { confirm: t('workflow.publish'), cancel: t('workflow.cancel') },
      onConfirm: () =>
        publish.mutate(
          { id, version },
          {
            onSuccess: () => notifySuccess(t('workflow.versionPublished', { version })),
            onError: (err) => {
              if (err instanceof ApiError)
                setProblems(err.details.length ? err.details : [{ path: '', message: err.message, ...err.keyed }]);
              notifyError(err);
            },
          },
        ),
    });
  };

  const onPublishForm = () => {
    if (!chosenForm) return;
    const version = chosenForm.latestVersion;
    publishForm.mutate(
      { id: chosenForm.id, version, action: 'publish' },
      {
        onSuccess: () => notifySuccess(t('workflow.designer.formPublished', { form: chosenForm.title, version })),
        onError: notifyError,
      },
    );
  };
  // Whether a clerk can file a request on this flow now, and if not, why and what to do (publishing a
  // draft is offered there, beside the reason).
  const flowUnpublished = !!flow.data && flow.data.publishedVersion == null;
  const draftPending = !!flow.data && flow.data.publishedVersion != null && latest?.state === 'BORRADOR';
  const formUnpublished = !!chosenForm && chosenForm.publishedVersion == null;
  const mayPublishFlow = !!id && can('flow', 'APPROVE') && latest?.state === 'BORRADOR';

  return (
    <Stack gap="md">
      <PageHeader
        title={id ? t('workflow.designer.titleEdit', { title: flow.data?.title }) : t('workflow.designer.titleNew')}
        description={t('workflow.designer.description')}
      >
        <Group gap="xs">
          <Button variant="default" leftSection={<IconCheck size={16} />} onClick={onValidate} loading={validate.isPending}>
            {t('workflow.designer.validate')}
          </Button>
          {mayEdit && (
            <Button leftSection={<IconDeviceFloppy size={16} />} onClick={onSave} loading={save.isPending}>
              {t('workflow.designer.save')}
            </Button>
          )}
        </Group>
      </PageHeader>
      {problems && (
        <Alert
          color={problems.length ? 'red' : 'green'}
          title={problems.length ? t('workflow.designer.hasProblems') : t('workflow.designer.valid')}
        >
          {problems.length
            ? problems.map((p) => (
                <Text key={p.path + p.message} size="sm">
                  {messageText(p)}
                </Text>
              ))
            : t('workflow.designer.canPublish')}
        </Alert>
      )}
      {(flowUnpublished || draftPending) && (
        <Alert color={flowUnpublished ? 'yellow' : 'blue'} data-testid="flow-availability">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">
              {flowUnpublished
                ? t('workflow.designer.notPublished')
                : t('workflow.designer.draftPending', {
                    version: latest?.version,
                    published: flow.data?.publishedVersion,
                  })}
            </Text>
            {mayPublishFlow && (
              <Button
                size="xs"
                color="green"
                leftSection={<IconSend size={14} />}
                onClick={onPublish}
                loading={publish.isPending}
              >
                {t('workflow.designer.publishVersion', { version: latest?.version })}
              </Button>
            )}
          </Group>
        </Alert>
      )}
      {formUnpublished && chosenForm && (
        <Alert color="yellow" data-testid="flow-form-availability">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">{t('workflow.designer.formNotPublished', { form: chosenForm.title })}</Text>
            {can('forms', 'UPDATE') && chosenForm.latestState === 'BORRADOR' ? (
              <Button size="xs" color="green" onClick={onPublishForm} loading={publishForm.isPending}>
                {t('workflow.designer.publishForm', { version: chosenForm.latestVersion })}
              </Button>
            ) : (
              <Button size="xs" variant="light" component={Link} to="/forms">
                {t('workflow.designer.openForms')}
              </Button>
            )}
          </Group>
        </Alert>
      )}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Card withBorder p={0}>
            <Box h={480} data-testid="flow-canvas">
              <ReactFlow
                nodes={nodes}
                edges={edges}
                onNodesChange={onNodesChange}
                onNodeDragStop={(_, n) => onNodeDragStop(n)}
                onConnect={(c) => c.source && c.target && c.source !== c.target && addTransition(c.source, c.target)}
                onNodeClick={(_, n) => setSel({ kind: 'state', key: n.id })}
                onEdgeClick={(_, e) => setSel({ kind: 'transition', key: e.id })}
                fitView
                colorMode={colorScheme}
                proOptions={{ hideAttribution: true }}
              >
                <Background />
                <Controls showInteractive={false} />
              </ReactFlow>
            </Box>
          </Card>
          <Text size="xs" c="dimmed" mt={4}>
            {t('workflow.designer.legend')}
          </Text>
          {!!localProblems.length && (
            <Text size="xs" c="red" mt={4}>
              {t('workflow.designer.pending', { problems: localProblems.map(messageText).join(' ') })}
            </Text>
          )}
          {flow.data && (
            <Table.ScrollContainer minWidth={520} mt="md">
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('workflow.version')}</Table.Th>
                    <Table.Th>{t('workflow.state')}</Table.Th>
                    <Table.Th>{t('workflow.created')}</Table.Th>
                    <Table.Th>{t('workflow.published')}</Table.Th>
                    <Table.Th>{t('workflow.flows.openRequests')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {flow.data.versions.map((v) => (
                    <Table.Tr key={v.id}>
                      <Table.Td>{t('workflow.versionShort', { version: v.version })}</Table.Td>
                      <Table.Td>
                        <VersionBadge state={v.state} />
                      </Table.Td>
                      <Table.Td>{moment(v.createdAt)}</Table.Td>
                      <Table.Td>{moment(v.publishedAt)}</Table.Td>
                      <Table.Td>{v.requests}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="sm">
            <Card withBorder>
              <Stack gap="xs">
                <TextInput
                  label={t('workflow.designer.flowTitle')}
                  required
                  value={title}
                  onChange={(e) => setTitle(e.currentTarget.value)}
                />
                <TextInput
                  label={t('workflow.description')}
                  value={description}
                  onChange={(e) => setDescription(e.currentTarget.value)}
                />
                <Select
                  label={t('workflow.designer.form')}
                  required
                  data={options.forms.map((f) => ({ value: String(f.id), label: f.title }))}
                  value={formId ? String(formId) : null}
                  onChange={(v) => setFormId(v ? Number(v) : null)}
                  searchable
                />
                <Select
                  label={t('workflow.designer.initial')}
                  data={def.states.map((s) => ({ value: s.key, label: s.label }))}
                  value={def.initial}
                  allowDeselect={false}
                  onChange={(v) => v && setDef({ ...def, initial: v })}
                />
                <Text size="xs" c="dimmed">
                  {t('workflow.designer.defaultSla', { count: options.defaultSlaDays })}
                </Text>
              </Stack>
            </Card>
            <Card withBorder>
              <Stack gap="xs">
                <Group gap="xs" align="end">
                  <TextInput
                    label={t('workflow.designer.newState')}
                    placeholder={t('workflow.designer.stateName')}
                    value={newState}
                    onChange={(e) => setNewState(e.currentTarget.value)}
                    style={{ flex: 1, minWidth: 160 }}
                  />
                  <Button leftSection={<IconPlus size={16} />} onClick={addState} variant="light">
                    {t('workflow.designer.addState')}
                  </Button>
                </Group>
                <Group gap="xs" align="end" wrap="nowrap">
                  <Select
                    label={t('workflow.designer.from')}
                    data={def.states.map((s) => ({ value: s.key, label: s.label }))}
                    value={from}
                    onChange={setFrom}
                    style={{ flex: 1 }}
                  />
                  <Select
                    label={t('workflow.designer.to')}
                    data={def.states.map((s) => ({ value: s.key, label: s.label }))}
                    value={to}
                    onChange={setTo}
                    style={{ flex: 1 }}
                  />
                </Group>
                <Button
                  variant="light"
                  leftSection={<IconPlus size={16} />}
                  disabled={!from || !to || from === to}
                  onClick={() => from && to && addTransition(from, to)}
                >
                  {t('workflow.designer.addTransition')}
                </Button>
              </Stack>
            </Card>
            {state && (
              <Card withBorder data-testid="state-editor">
                <Stack gap="xs">
                  <Group justify="space-between">
                    <Text fw={600}>{t('workflow.designer.stateTitle', { key: state.key })}</Text>
                    <ActionIcon
                      color="red"
                      variant="subtle"
                      aria-label={t('workflow.designer.removeState', { label: state.label })}
                      onClick={() =>
                        openConfirm({
                          title: t('workflow.designer.removeStateTitle'),
                          children: <Text size="sm">{t('workflow.designer.removeStateText')}</Text>,
                          labels: { confirm: t('workflow.remove'), cancel: t('workflow.cancel') },
                          confirmProps: { color: 'red' },
                          onConfirm: () => {
                            setDef((d) => ({
                              ...d,
                              states: d.states.filter((s) => s.key !== state.key),
                              transitions: d.transitions.filter((x) => x.from !== state.key && x.to !== state.key),
                            }));
                            setSel(null);
                          },
                        })
                      }
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                  <TextInput
                    label={t('workflow.designer.name')}
                    value={state.label}
                    onChange={(e) => patchState({ label: e.currentTarget.value })}
                  />
                  <Checkbox
                    label={t('workflow.designer.editable')}
                    checked={!!state.editable}
                    onChange={(e) => patchState({ editable: e.currentTarget.checked })}
                  />
                  <NumberInput
                    label={t('workflow.designer.sla')}
                    placeholder={t('workflow.designer.slaDefault', { days: options.defaultSlaDays })}
                    min={1}
                    max={365}
                    value={state.slaDays ?? ''}
                    onChange={(v) => patchState({ slaDays: v === '' ? null : Number(v) })}
                  />
                </Stack>
              </Card>
            )}
            {transition && (
              <Card withBorder data-testid="transition-editor">
                <Stack gap="xs">
                  <Group justify="space-between">
                    <Text fw={600}>
                      {t('workflow.designer.transitionTitle', {
                        from: def.states.find((s) => s.key === transition.from)?.label,
                        to: def.states.find((s) => s.key === transition.to)?.label,
                      })}
                    </Text>
                    <ActionIcon
                      color="red"
                      variant="subtle"
                      aria-label={t('workflow.designer.removeTransition', { label: transition.label })}
                      onClick={() => {
                        setDef((d) => ({ ...d, transitions: d.transitions.filter((x) => x.key !== transition.key) }));
                        setSel(null);
                      }}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                  <TextInput
                    label={t('workflow.designer.buttonText')}
                    value={transition.label}
                    onChange={(e) => patchTransition({ label: e.currentTarget.value })}
                  />
                  <Select
                    label={t('workflow.designer.who')}
                    data={[
                      { value: 'requester', label: t('workflow.designer.theRequester') },
                      ...options.roles.map((r) => ({
                        value: String(r.id),
                        label: t('workflow.designer.role', { name: r.name }),
                      })),
                    ]}
                    value={transition.requester ? 'requester' : transition.roleId ? String(transition.roleId) : null}
                    onChange={(v) =>
                      patchTransition(
                        v === 'requester'
                          ? { requester: true, roleId: null }
                          : { requester: false, roleId: v ? Number(v) : null },
                      )
                    }
                    searchable
                  />
                  <Checkbox
                    label={t('workflow.designer.commentRequired')}
                    checked={!!transition.commentRequired}
                    onChange={(e) => patchTransition({ commentRequired: e.currentTarget.checked })}
                  />
                  <Text size="sm" fw={500}>
                    {t('workflow.designer.condition')}
                  </Text>
                  <Group grow>
                    <Select
                      placeholder={t('workflow.designer.noCondition')}
                      clearable
                      aria-label={t('workflow.designer.conditionField')}
                      data={formFields.map((f) => ({ value: f.name, label: f.label }))}
                      value={transition.condition?.field ?? null}
                      onChange={(v) =>
                        patchTransition({
                          condition: v
                            ? { field: v, op: transition.condition?.op ?? 'eq', value: transition.condition?.value ?? '' }
                            : null,
                        })
                      }
                    />
                    {transition.condition && (
                      <Select
                        aria-label={t('workflow.designer.operator')}
                        data={conditionOps.map((o) => ({ value: o, label: t(`workflow.conditionOps.${o}`) }))}
                        value={transition.condition.op}
                        allowDeselect={false}
                        onChange={(v) => patchTransition({ condition: { ...transition.condition!, op: (v ?? 'eq') as never } })}
                      />
                    )}
                  </Group>
                  {transition.condition && transition.condition.op !== 'filled' && (
                    <TextInput
                      aria-label={t('workflow.designer.conditionValue')}
                      placeholder={t('workflow.designer.value')}
                      value={String(transition.condition.value ?? '')}
                      onChange={(e) => patchTransition({ condition: { ...transition.condition!, value: e.currentTarget.value } })}
                    />
                  )}
                  <Select
                    label={t('workflow.designer.action')}
                    placeholder={t('workflow.designer.noAction')}
                    clearable
                    data={flowActionKinds.map((k) => ({ value: k, label: t(`workflow.actionKinds.${k}`) }))}
                    value={transition.action?.kind ?? null}
                    onChange={(v) =>
                      patchTransition({
                        action: v
                          ? { kind: v as never, module: v === 'module' ? options.moduleActions[0]?.key : undefined }
                          : null,
                      })
                    }
                  />
                  {transition.action?.kind === 'module' && (
                    <Select
                      label={t('workflow.designer.moduleAction')}
                      data={options.moduleActions.map((a) => ({ value: a.key, label: a.label }))}
                      value={transition.action.module ?? null}
                      onChange={(v) => patchTransition({ action: { kind: 'module', module: v ?? undefined } })}
                    />
                  )}
                  {transition.action?.kind === 'notify' && (
                    <TextInput
                      label={t('workflow.designer.notifyMessage')}
                      value={transition.action.message ?? ''}
                      onChange={(e) =>
                        patchTransition({ action: { kind: 'notify', message: e.currentTarget.value || undefined } })
                      }
                    />
                  )}
                </Stack>
              </Card>
            )}
            <Card withBorder>
              <Text fw={600} size="sm" mb={4}>
                {t('workflow.designer.transitions', { count: def.transitions.length })}
              </Text>
              {def.transitions.length === 0 && (
                <Text size="sm" c="dimmed">
                  {t('workflow.designer.noTransitions')}
                </Text>
              )}
              {def.transitions.map((x) => (
                <Button
                  key={x.key}
                  variant="subtle"
                  size="compact-sm"
                  justify="start"
                  fullWidth
                  h="auto"
                  py={4}
                  styles={{ label: { whiteSpace: 'normal', textAlign: 'start' } }}
                  onClick={() => setSel({ kind: 'transition', key: x.key })}
                >
                  {def.states.find((s) => s.key === x.from)?.label} → {def.states.find((s) => s.key === x.to)?.label}: {x.label} (
                  {roleName(x)})
                </Button>
              ))}
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
