import { useMemo } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { nextCronRuns } from './cronRuns';
import { WIDGET_TEXTS } from './widgetTexts';

const SHOWN_RUNS = 3;

/**
 * A Quartz cron with its next runs under it, so that whoever writes `0 0 2 ? * SAT` sees
 * what it means before saving. An expression that never runs is refused by the form (the
 * engine's cron check) with "The cron expression is invalid".
 */
export function CronWidget(props: WidgetProps) {
  const { registry, value, id } = props;
  const BaseInput = registry.templates.BaseInputTemplate;
  const runs = useMemo(
    () => (typeof value === 'string' && value.trim() ? nextCronRuns(value, SHOWN_RUNS) : []),
    [value],
  );
  return (
    <div className="cron-field">
      <BaseInput {...props} type="text" />
      {runs.length > 0 && (
        <div className="cron-next-runs" id={`${id}__runs`}>
          <span>{WIDGET_TEXTS.nextRuns}</span>
          <ul>
            {runs.map((run) => (
              <li key={run.toISOString()}>
                <time dateTime={run.toISOString()}>{run.toLocaleString()}</time>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
