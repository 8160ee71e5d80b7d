// @vitest-environment happy-dom
/** The desktop login screen's server address: checked before main is asked, main's refusal shown, the API client re-pointed. */
import '@testing-library/jest-dom/vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerAddressSetting } from '../../../src/renderer/src/features/auth/components/server-address-setting';
import { apiBaseUrl, defaultApiBaseUrl, setApiBaseUrl } from '../../../src/renderer/src/lib/config';
import { IpcFailureAnswer, fakeMain } from './fake-main';

afterEach(() => {
  delete (window as { desktop?: unknown }).desktop;
  setApiBaseUrl(defaultApiBaseUrl);
});

describe('server address (desktop)', () => {
  it('is not offered in web mode', () => {
    const { container } = render(<ServerAddressSetting />);
    expect(container).toBeEmptyDOMElement();
  });

  it('refuses a malformed address without asking main, shows main’s refusal, and remembers a working one', async () => {
    let remembered = 'http://127.0.0.1:4000';
    const main = fakeMain({
      'server.getAddress': () => ({ url: remembered, connectSrc: [remembered] }),
      'server.setAddress': (a) => {
        const { url } = a as { url: string };
        if (url.includes('nothing-here')) throw new IpcFailureAnswer(503, 'No Parley server answers at https://nothing-here.example');
        remembered = url;
        return { url, connectSrc: [url, url.replace(/^http/, 'ws')] };
      },
    });
    window.desktop = main.desktop;
    render(<ServerAddressSetting />);
    expect(await screen.findByText('http://127.0.0.1:4000')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Change' }));
    const field = screen.getByLabelText('Parley server address');
    await userEvent.clear(field);
    await userEvent.type(field, 'ftp://files.example.com/inbox');
    await userEvent.click(screen.getByRole('button', { name: 'Check and save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('http(s)://host[:port]');
    expect(main.callsOf('server.setAddress')).toHaveLength(0);

    await userEvent.clear(field);
    await userEvent.type(field, 'https://nothing-here.example');
    await userEvent.click(screen.getByRole('button', { name: 'Check and save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No Parley server answers');
    expect(apiBaseUrl()).toBe(defaultApiBaseUrl);

    await userEvent.clear(field);
    await userEvent.type(field, 'https://parley.acme.example');
    await userEvent.click(screen.getByRole('button', { name: 'Check and save' }));
    expect(await screen.findByText('https://parley.acme.example')).toBeInTheDocument();
    expect(apiBaseUrl()).toBe('https://parley.acme.example');
    expect(remembered).toBe('https://parley.acme.example');
  });
});
