/** Resolves the `guards` section and the older `poisoning` key into one policy per guard (docs/configuration.md). */
import type { GuardId, GuardMode, GuardPolicy, GuardsConfig, PortcullisConfig } from './types.ts';

/** The guard keys as written in a config document (validated by the schema). */
export interface RawGuardSettings {
  poisoning?: PortcullisConfig['poisoning'] | undefined;
  guards?: { [id in GuardId]?: Partial<GuardPolicy> | undefined } | undefined;
}

// Today's behaviour: only the poisoning guard annotates instead of withholding; the response scan is opt-in.
const DEFAULT_MODES: { readonly [id in GuardId]: GuardMode } = {
  fingerprint: 'enforce',
  poisoning: 'advisory',
  riskCap: 'enforce',
  shadowing: 'enforce',
  composition: 'enforce',
  responseScan: 'off',
};

const poisoningModeOf = (key: PortcullisConfig['poisoning'] | undefined): GuardMode | undefined =>
  key === undefined ? undefined : key === 'block' ? 'enforce' : 'advisory';

/** The per-guard policies, and the `poisoning` key kept in step with the poisoning guard's mode. */
export function resolveGuardSettings(raw: RawGuardSettings): Pick<PortcullisConfig, 'guards' | 'poisoning'> {
  const policy = (id: GuardId, fallback: GuardMode): GuardPolicy => ({
    mode: raw.guards?.[id]?.mode ?? fallback,
    onError: raw.guards?.[id]?.onError ?? 'closed',
  });
  const guards: GuardsConfig = {
    fingerprint: policy('fingerprint', DEFAULT_MODES.fingerprint),
    poisoning: policy('poisoning', poisoningModeOf(raw.poisoning) ?? DEFAULT_MODES.poisoning),
    riskCap: policy('riskCap', DEFAULT_MODES.riskCap),
    shadowing: policy('shadowing', DEFAULT_MODES.shadowing),
    composition: policy('composition', DEFAULT_MODES.composition),
    responseScan: policy('responseScan', DEFAULT_MODES.responseScan),
  };
  return { guards, poisoning: guards.poisoning.mode === 'enforce' ? 'block' : 'warn' };
}

/** A problem when `poisoning` and `guards.poisoning.mode` are both written and disagree, else undefined. */
export function conflictingPoisoningKeys(raw: RawGuardSettings): string | undefined {
  const fromKey = poisoningModeOf(raw.poisoning);
  const mode = raw.guards?.poisoning?.mode;
  if (fromKey === undefined || mode === undefined || fromKey === mode) return undefined;
  return `poisoning: '${raw.poisoning}' means guards.poisoning.mode '${fromKey}', but guards.poisoning.mode is '${mode}' (write one of them)`;
}
