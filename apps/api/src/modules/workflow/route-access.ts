/** What the workflow's route files share: their OpenAPI tag and the permission each route asks for. */

export const tags = ['workflow'];
type Act = 'READ' | 'CREATE' | 'UPDATE' | 'DELETE' | 'APPROVE' | 'EXPORT';
export const grant =
  <R extends 'forms' | 'flow' | 'sig-items' | 'sig-query'>(resource: R) =>
  (verb: Act) => ({ resource, action: verb });
