import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { LoginSchema } from '@domain/schemas/auth.schema';
import { Button } from '@/components/ui/button';
import { TextInput } from '@/components/ui/form-field';
import { ErrorList } from '@/components/ui/error-list';
import { paths } from '@/config/paths';
import { afterSignIn } from '@/lib/after-sign-in';
import { errorMessages } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useFormIssues } from '@/lib/use-form-issues';
import { useLogin } from '@/api/session';

export default function LoginPage() {
  const navigate = useNavigate();
  const { state } = useLocation();
  useDocumentTitle('Sign in');
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const issues = useFormIssues();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const credentials = issues.check(LoginSchema, { email, password });
    if (!credentials) return;
    login.mutate(credentials, { onSuccess: () => navigate(afterSignIn(state), { replace: true }) });
  }

  const messages =
    issues.messages.length > 0 ? issues.messages : login.isError ? errorMessages(login.error) : [];

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-primary to-primary-light px-4 py-12">
      <div className="w-full max-w-sm rounded-2xl bg-white p-8 shadow-xl">
        <Link
          to={paths.landing}
          className="mb-6 inline-flex items-center gap-2 text-sm text-accent hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent pointer-coarse:min-h-11"
        >
          ← Back to home
        </Link>
        <h1 className="mb-1 text-2xl font-bold text-primary">Sign in</h1>
        <p className="mb-6 text-sm text-slate-600">Warehouse Manager for your team</p>
        <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Sign in">
          <ErrorList messages={messages} />
          <label className="block">
            <span className="mb-1 block text-sm font-medium text-slate-700">Email</span>
            <TextInput
              type="email"
              name="email"
              autoComplete="username"
              required
              autoFocus
              value={email}
              onValue={setEmail}
            />
          </label>
          <label className="block">
            <span className="mb-1 block text-sm font-medium text-slate-700">Password</span>
            <TextInput
              type="password"
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onValue={setPassword}
            />
          </label>
          <Button type="submit" className="w-full" disabled={login.isPending}>
            {login.isPending ? 'Signing in...' : 'Sign in'}
          </Button>
        </form>
      </div>
    </main>
  );
}
