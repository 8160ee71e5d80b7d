import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export function Table({ className, ...props }: ComponentProps<'table'>) {
  return (
    <div className="w-full overflow-x-auto">
      <table className={cn('w-full border-collapse text-[13px]', className)} {...props} />
    </div>
  );
}
export function THead({ className, ...props }: ComponentProps<'thead'>) {
  return <thead className={cn('border-b border-border bg-subtle/60', className)} {...props} />;
}
export function TBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody className={cn('divide-y divide-border', className)} {...props} />;
}
export function TR({ className, ...props }: ComponentProps<'tr'>) {
  return <tr className={cn('transition-colors hover:bg-subtle/60', className)} {...props} />;
}
export function TH({ className, ...props }: ComponentProps<'th'>) {
  return (
    <th
      scope="col"
      className={cn('h-8 px-4 text-left text-[11px] font-medium tracking-wide whitespace-nowrap text-fg-subtle uppercase', className)}
      {...props}
    />
  );
}
export function TD({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('h-11 px-4 align-middle whitespace-nowrap text-fg', className)} {...props} />;
}
