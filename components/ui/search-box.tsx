'use client';
import { useEffect, useId, useState } from 'react';

/** A labelled search input that reports its value after a short pause in typing. */
export function SearchBox({
  label,
  placeholder,
  onSearch,
  delay = 250,
}: {
  label: string;
  placeholder?: string;
  onSearch: (value: string) => void;
  delay?: number;
}) {
  const id = useId();
  const [value, setValue] = useState('');
  useEffect(() => {
    const t = setTimeout(() => onSearch(value.trim()), delay);
    return () => clearTimeout(t);
    // onSearch is a fresh closure each render; the value is what matters.
  }, [value, delay]);
  return (
    <div className="grow" role="search">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input id={id} type="search" className="input" placeholder={placeholder} value={value} onChange={(e) => setValue(e.target.value)} />
    </div>
  );
}
