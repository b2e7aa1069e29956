import { useParams } from 'react-router';
import { RecordPage } from '../../components/collections/RecordPage.tsx';

/** /dcrud/:collection/:id (or /new): the record page with the collection from the URL. */
export function DcrudRecordPage() {
  const { collection = '' } = useParams();
  return <RecordPage key={collection} collection={collection} basePath={`/dcrud/${collection}`} />;
}
