import { expect, test } from './fixtures';

test.describe('API tokens and webhooks', () => {
  test('a Manager creates an API token, sees its secret once, revokes it, and adds a webhook endpoint', async ({
    signedIn: page,
  }) => {
    await page.goto('/team');
    const tokens = page.getByRole('region', { name: 'API tokens' });
    await expect(tokens.getByText('No API tokens yet')).toBeVisible();

    // create a Viewer token: the secret is shown once, with a copy button
    await tokens.getByRole('button', { name: 'New token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API token' });
    await dialog.getByLabel('Name').fill('Dispatch sync');
    await dialog.getByLabel('Role').selectOption({ label: 'Viewer' });
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await expect(page.getByText('Token Dispatch sync created')).toBeVisible();
    const shown = page.getByRole('dialog', { name: 'Copy the token now' });
    await expect(shown.getByRole('button', { name: 'Copy api token' })).toBeVisible();
    const secret = await shown.getByTestId('secret-once').inputValue();
    expect(secret).toMatch(/^wmt_[\w-]{43}$/);

    // a program calls the API with it, as a Viewer
    const asProgram = { headers: { Authorization: `Bearer ${secret}` } };
    expect((await page.request.get('/api/stage/vaults', asProgram)).status()).toBe(200);
    expect((await page.request.get('/api/team', asProgram)).status()).toBe(403);

    // once closed, the secret is nowhere on the page; the list shows the token's end and when it was used
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByTestId('secret-once')).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);
    const row = tokens.getByRole('listitem', { name: 'Dispatch sync' });
    await expect(row.getByText(`...${secret.slice(-4)}`)).toBeVisible();
    await expect(row.getByTestId('api-token-status')).toHaveText('Active');
    await page.reload();
    await expect(row.getByText(/last used never/)).toHaveCount(0);

    // revoke it, after confirming: the program is refused at once
    await row.getByRole('button', { name: 'Revoke token Dispatch sync' }).click();
    await page
      .getByRole('alertdialog', { name: 'Revoke this token?' })
      .getByRole('button', { name: 'Yes, revoke it' })
      .click();
    await expect(page.getByText('Token Dispatch sync revoked')).toBeVisible();
    await expect(row.getByTestId('api-token-status')).toHaveText('Revoked');
    expect((await page.request.get('/api/stage/vaults', asProgram)).status()).toBe(401);

    // add a webhook endpoint for two event kinds: its signing secret is shown once
    const webhooks = page.getByRole('region', { name: 'Webhooks' });
    await webhooks.getByRole('button', { name: 'Add endpoint' }).click();
    const add = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
    await add.getByLabel('URL').fill('http://receiver.example.test/hook');
    for (const kind of ['Vault moved', 'Vault staged', 'Vault released', 'Vault deleted'])
      await add.getByLabel(kind).uncheck();
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    // plain http is refused with a readable message
    await expect(add.getByText('URL must be an https:// address.')).toBeVisible();
    await add.getByLabel('URL').fill('https://receiver.example.test/hook');
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByText('Webhook endpoint added')).toBeVisible();
    const signing = page.getByRole('dialog', { name: 'Copy the signing secret now' });
    expect(await signing.getByTestId('secret-once').inputValue()).toMatch(/^whsec_/);
    await signing.getByRole('button', { name: 'Done' }).click();
    const endpoint = webhooks.getByRole('listitem', { name: 'https://receiver.example.test/hook' });
    await expect(endpoint.getByText('Vault added, Warehouse check finished')).toBeVisible();
    await endpoint.getByRole('button', { name: 'Recent deliveries' }).click();
    await expect(endpoint.getByText('Nothing sent yet.')).toBeVisible();
  });
});
