/** On/off switch on radix-ui (role="switch", Space/Enter toggle, aria-checked); labelled by its `<label htmlFor>`. */
import { Switch as S } from 'radix-ui';

export function Switch({
  id,
  checked,
  onCheckedChange,
  disabled,
  describedBy,
}: {
  id: string;
  checked: boolean;
  onCheckedChange: (on: boolean) => void;
  disabled?: boolean;
  describedBy?: string;
}) {
  return (
    <S.Root id={id} className="switch" checked={checked} onCheckedChange={onCheckedChange} disabled={disabled} aria-describedby={describedBy}>
      <S.Thumb className="switch-thumb" />
    </S.Root>
  );
}
