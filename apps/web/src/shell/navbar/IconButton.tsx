import { Button, Tooltip } from '@arco-design/web-react';
import { type ButtonHTMLAttributes, forwardRef, type ReactNode } from 'react';

type Props = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'onClick'> & {
  onClick?: () => void;
  label: string;
  icon: ReactNode;
  /** Off when a dropdown or popover wraps the button (they take over its events). */
  tooltip?: boolean;
};

/** A round icon-only navbar button: its label is the accessible name and the tooltip. */
export const IconButton = forwardRef<HTMLButtonElement, Props>(function IconButton({ label, icon, tooltip = true, ...rest }, ref) {
  const button = <Button {...rest} ref={ref} shape="circle" type="secondary" className="nav-btn" icon={icon} aria-label={label} />;
  return tooltip ? (
    <Tooltip content={label} position="bottom" mini>
      {button}
    </Tooltip>
  ) : (
    button
  );
});
