import { Gauge, Radio, Users, Warehouse } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { ContactForm } from './contact-form';
import { useDocumentTitle } from '../../lib/use-document-title';

const features = [
  {
    icon: Radio,
    title: 'Real-time inventory',
    text: 'Every vault, liftvan, couchbox and pallet in one live map of your warehouses. Know where things are, right now.',
  },
  {
    icon: Gauge,
    title: 'A fast interface',
    text: 'Built for tablets on the warehouse floor: place, move and stage vaults in a tap, even in warehouses with thousands of slots.',
  },
  {
    icon: Users,
    title: 'Collaboration',
    text: 'Office staff, drivers and floor crews share one picture. Changes by a colleague show up on your screen without a reload.',
  },
];

export default function LandingPage() {
  useDocumentTitle(undefined);
  return (
    <div className="min-h-screen bg-surface">
      <header className="bg-primary text-white">
        <nav className="mx-auto flex max-w-6xl items-center justify-between px-4 py-4 sm:px-6">
          <span className="flex items-center gap-2 text-lg font-bold">
            <Warehouse className="h-6 w-6" aria-hidden /> Warehouse Manager
          </span>
          <Link to={paths.login} className={buttonClass('primary')}>
            Log In
          </Link>
        </nav>
        <div className="mx-auto max-w-6xl px-4 pt-12 pb-20 sm:px-6 lg:pt-20 lg:pb-28">
          <h1 className="max-w-3xl text-4xl font-extrabold tracking-tight sm:text-5xl">
            Storage warehouses, organised to the last vault.
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-blue-100">
            Lay out each warehouse as a grid of fields, track every customer's vaults and pallets, stage what
            is not placed yet, and print clean lists, without spreadsheets or whiteboards.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to={paths.login} className={buttonClass('primary', 'px-6 py-3 text-base')}>
              Log In
            </Link>
            <a href="#contact" className={buttonClass('secondary', 'px-6 py-3 text-base')}>
              Talk to us
            </a>
          </div>
        </div>
      </header>

      <main>
        <section aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <h2 id="features-title" className="sr-only">
            Features
          </h2>
          <div className="grid gap-6 md:grid-cols-3">
            {features.map(({ icon: Icon, title, text }) => (
              <article key={title} className="rounded-xl bg-white p-6 shadow-sm">
                <Icon className="h-8 w-8 text-accent" aria-hidden />
                <h3 className="mt-4 text-lg font-semibold text-primary">{title}</h3>
                <p className="mt-2 text-slate-600">{text}</p>
              </article>
            ))}
          </div>
        </section>

        <section aria-label="Testimonial" className="bg-white">
          <figure className="mx-auto max-w-3xl px-4 py-16 text-center sm:px-6">
            <blockquote className="text-xl font-medium text-slate-700 sm:text-2xl">
              “We retired three spreadsheets and a whiteboard. Our crew finds any customer's vaults in
              seconds, and the office sees every move the moment it happens.”
            </blockquote>
            <figcaption className="mt-6 text-sm text-slate-500">
              Operations manager, a family-run moving company
            </figcaption>
          </figure>
        </section>

        <section
          id="contact"
          aria-labelledby="contact-title"
          className="mx-auto max-w-3xl px-4 py-16 sm:px-6"
        >
          <h2 id="contact-title" className="mb-2 text-2xl font-bold text-primary">
            Contact us
          </h2>
          <p className="mb-6 text-slate-600">Tell us about your warehouses and we will show you around.</p>
          <ContactForm />
        </section>
      </main>

      <footer className="border-t border-slate-200 py-8 text-center text-sm text-slate-600">
        © {new Date().getFullYear()} Warehouse Manager
      </footer>
    </div>
  );
}
