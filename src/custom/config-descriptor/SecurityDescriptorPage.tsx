import { useEffect, useId } from 'react';
import { useUnit } from 'effector-react';
import { $securityError, $securityXml, securityPageMounted } from './model';
import { CONFIG_DESCRIPTOR_LABELS as L } from './messages';
import './config-descriptor.css';

/** Administration > Advanced > Security Descriptor (spec 03): the security settings as XML, read-only. */
export default function SecurityDescriptorPage() {
  const [xml, error, mounted] = useUnit([$securityXml, $securityError, securityPageMounted]);
  const viewId = useId();
  useEffect(() => mounted(), [mounted]);
  return (
    <section className="config-descriptor">
      <h1>{L.securityTitle}</h1>
      <p role="note" className="config-descriptor-warning">
        {L.securityWarning}
      </p>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      {xml === null && !error ? (
        <p>{L.loading}</p>
      ) : (
        <>
          <label htmlFor={viewId}>{L.securityXml}</label>
          <textarea id={viewId} className="config-descriptor-xml" readOnly value={xml ?? ''} />
        </>
      )}
    </section>
  );
}
