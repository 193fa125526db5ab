import { useState } from 'react';
import {
  alarmRuleLabels,
  alarmRules,
  alarmStateLabels,
  alarmStates,
  alarmTexts,
  type Alarm,
  type AlarmState,
} from '@app/contract/alarms';
import { FilterSelect } from '#web/components/filter-select.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { TableWithPager } from '#web/components/paged-table.tsx';
import { DEFAULT_PAGE_SIZES } from '#web/components/pager.tsx';
import { SearchBox } from '#web/components/search-box.tsx';
import { Tabs } from '#web/components/tabs.tsx';
import { useCan } from '#web/lib/use-session.ts';
import { useUrlFilter } from '#web/lib/use-url-filter.ts';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { useAlarms } from '../api/get-alarms.ts';
import { useAlarmActionConfirm } from '../components/alarm-action-confirm.tsx';
import { openColumns, pastColumns } from '../components/alarm-columns.tsx';
import { AlarmHistoryModal } from '../components/alarm-history-modal.tsx';

const ruleOptions = alarmRules.map((rule) => ({ value: rule, label: alarmRuleLabels[rule] }));

/**
 * /admin/alarms (decision 049): open and past device health alarms. The tab (open or past), the rule,
 * the machine searched for and the page live in the URL; an admin who may edit devices acknowledges
 * or resolves an open alarm after a confirmation; every alarm shows its history.
 */
export function AlarmsPage() {
  const list = useUrlListState({ pageSizes: DEFAULT_PAGE_SIZES });
  const [state, setState] = useUrlFilter('state', alarmStates, 'open');
  const [rule, setRule] = useUrlFilter('rule', alarmRules, '');
  const mayAct = useCan('devices.edit');
  const [history, setHistory] = useState<Alarm | null>(null);
  const confirm = useAlarmActionConfirm();
  const current = state || 'open';
  const { data, isPending, isFetching } = useAlarms({
    page: list.page,
    limit: list.limit,
    state: current,
    rule: rule || undefined,
    search: list.debouncedSearch || undefined,
  });

  const actions = (alarm: Alarm) => {
    const open = alarm.resolvedAt === null;
    const about = `${alarmRuleLabels[alarm.rule]} on ${alarm.machineNumber}`;
    return (
      <span className="d-inline-flex flex-wrap gap-1">
        {mayAct && open && alarm.acknowledgedAt === null ? (
          <button
            type="button"
            className="btn btn-sm btn-outline-primary"
            aria-label={`${alarmTexts.acknowledge} ${about}`}
            onClick={() => confirm.ask(alarm, 'acknowledge')}
          >
            {alarmTexts.acknowledge}
          </button>
        ) : null}
        {mayAct && open ? (
          <button
            type="button"
            className="btn btn-sm btn-outline-success"
            aria-label={`${alarmTexts.resolve} ${about}`}
            onClick={() => confirm.ask(alarm, 'resolve')}
          >
            {alarmTexts.resolve}
          </button>
        ) : null}
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          aria-label={`${alarmTexts.history} of ${about}`}
          onClick={() => setHistory(alarm)}
        >
          {alarmTexts.history}
        </button>
      </span>
    );
  };

  const table = () => (
    <TableWithPager
      label={`${alarmStateLabels[current]} alarms`}
      columns={current === 'open' ? openColumns : pastColumns}
      rows={data?.alarms}
      getRowKey={(alarm) => alarm._id}
      emptyText={current === 'open' ? alarmTexts.emptyOpen : alarmTexts.emptyPast}
      isLoading={isPending || (isFetching && !data)}
      list={list}
      totalPages={data?.totalPages}
      total={data?.total}
      noun={['alarm', 'alarms']}
      pagerLabel="Alarms pages"
      actions={actions}
    />
  );

  return (
    <>
      <PageHeader title={alarmTexts.title} />
      <div className="card shadow-sm">
        <div className="card-body">
          <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
            <SearchBox label="Search alarms by machine" value={list.search} onChange={list.setSearch} />
            <FilterSelect
              label="Rule"
              allLabel={alarmTexts.allRules}
              value={rule}
              options={ruleOptions}
              onChange={setRule}
            />
          </div>
          <Tabs
            label="Alarms"
            activeId={current}
            onChange={(id) => setState(id as AlarmState)}
            tabs={alarmStates.map((id) => ({ id, label: alarmStateLabels[id], render: table }))}
          />
        </div>
      </div>
      {confirm.modal}
      <AlarmHistoryModal alarm={history} onClose={() => setHistory(null)} />
    </>
  );
}
