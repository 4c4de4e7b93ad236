import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { type DataProvider, DataProviderContext, useDataProvider, useListContext } from 'react-admin';
import { useFormContext } from 'react-hook-form';

/** Names the filter fields whose value the list's own checks refuse, given all its filters. */
export type RefusedFilters = (filters: Record<string, unknown>) => string[];

const Refused = createContext<RefusedFilters | undefined>(undefined);

/**
 * A list whose filters may arrive refused (a bad date in a bookmarked or shared address): a filter its fields refuse
 * is never sent, so the list loads with the others, as it keeps its rows while a typed value is refused; the field
 * shows the value marked with its message (`useRefusedFilter`).
 */
export const BookmarkedFilters = ({
  refused,
  children,
}: {
  refused?: RefusedFilters;
  children: ReactNode;
}) => {
  const dataProvider = useDataProvider();
  const guarded = useMemo<DataProvider>(() => {
    if (!refused) return dataProvider;
    const accepted = (filter: Record<string, unknown> = {}) => {
      const out = refused(filter);
      return Object.fromEntries(Object.entries(filter).filter(([field]) => !out.includes(field)));
    };
    return new Proxy(dataProvider, {
      get: (target, name, receiver) =>
        name === 'getList'
          ? (resource: string, params: Parameters<DataProvider['getList']>[1]) =>
              target.getList(resource, { ...params, filter: accepted(params.filter) })
          : Reflect.get(target, name, receiver),
    });
  }, [dataProvider, refused]);
  return (
    <Refused.Provider value={refused}>
      <DataProviderContext.Provider value={guarded}>{children}</DataProviderContext.Provider>
    </Refused.Provider>
  );
};

/**
 * For a filter field: a value the list's address brought and its checks refuse is marked with its message on
 * arrival, as when it was typed (validated and touched), instead of the list failing to load.
 */
export const useRefusedFilter = (source: string) => {
  const refused = useContext(Refused);
  const { filterValues } = useListContext();
  const { getValues, setValue } = useFormContext();
  // After the first render's effects: the filter form sets its values from the list's filters in its own.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const arrivedRefused = mounted && !!refused?.(filterValues ?? {}).includes(source);
  useEffect(() => {
    if (arrivedRefused) setValue(source, getValues(source), { shouldValidate: true, shouldTouch: true });
  }, [arrivedRefused, source, getValues, setValue]);
};
