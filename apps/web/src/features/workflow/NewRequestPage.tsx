import type { ErrorDetail } from '@aporta/domain';
import { Alert, Card, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { ApiError } from '../../lib/api.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { messageText } from '../../lib/server-messages.ts';
import { useCreateRequest, useSigOptions } from './api.ts';
import { FormRenderer } from './FormRenderer.tsx';

/** `/sig/item/new`: pick a published flow, the entity, fill its form; the server validates the same form. */
export function NewRequestPage() {
  const { t } = useTranslation();
  const options = useSigOptions();
  const navigate = useNavigate();
  const create = useCreateRequest();
  const [flowId, setFlowId] = useState<string | null>(null);
  const [entityId, setEntityId] = useState<string | null>(null);
  const [data, setData] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<ErrorDetail[]>([]);
  return (
    <Stack gap="md">
      <PageHeader title={t('workflow.newRequest.title')} description={t('workflow.newRequest.description')} />
      <QueryState query={options}>
        {() => {
          const o = options.data!;
          const flow = o.flows.find((f) => String(f.id) === flowId);
          return (
            <Card withBorder maw={760}>
              <Stack>
                {o.flows.length === 0 && <Alert color="yellow">{t('workflow.newRequest.noFlows')}</Alert>}
                <Select
                  label={t('workflow.newRequest.procedure')}
                  required
                  data={o.flows.map((f) => ({ value: String(f.id), label: f.title }))}
                  value={flowId}
                  onChange={(v) => {
                    setFlowId(v);
                    setData({});
                    setErrors([]);
                  }}
                />
                <Select
                  label={t('workflow.newRequest.entity')}
                  required={!o.anyEntity}
                  clearable={o.anyEntity}
                  searchable
                  data={o.entities.map((e) => ({ value: String(e.id), label: e.name }))}
                  value={entityId ?? (o.entities.length === 1 && !o.anyEntity ? String(o.entities[0].id) : null)}
                  onChange={setEntityId}
                  error={errors.filter((e) => e.path === 'entityId').map(messageText)[0]}
                  description={o.anyEntity ? t('workflow.newRequest.entityOptional') : undefined}
                />
                {errors.length > 0 && (
                  <Alert color="red" title={t('workflow.newRequest.review')}>
                    {errors.map((e) => (
                      <Text key={e.path + e.message} size="sm">
                        {messageText(e)}
                      </Text>
                    ))}
                  </Alert>
                )}
                {flow?.schema && (
                  <FormRenderer
                    schema={flow.schema}
                    uiSchema={flow.uiSchema ?? {}}
                    data={data}
                    onChange={setData}
                    context={{ entities: o.entities, canUpload: true }}
                    extraErrors={errors}
                    busy={create.isPending}
                    submitLabel={t('workflow.newRequest.submit')}
                    onSubmit={(d) => {
                      const entity = entityId ?? (o.entities.length === 1 && !o.anyEntity ? String(o.entities[0].id) : null);
                      create.mutate(
                        { flowId: Number(flowId), entityId: entity ? Number(entity) : null, data: d },
                        {
                          onSuccess: (r) => {
                            notifySuccess(t('workflow.newRequest.filed', { number: r.number }));
                            navigate(`/sig/item/${r.id}`);
                          },
                          onError: (err) => {
                            if (err instanceof ApiError)
                              setErrors(err.details.length ? err.details : [{ path: '', message: err.message, ...err.keyed }]);
                            notifyError(err);
                          },
                        },
                      );
                    }}
                  />
                )}
              </Stack>
            </Card>
          );
        }}
      </QueryState>
    </Stack>
  );
}
