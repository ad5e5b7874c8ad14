import { type ChangeEvent, createRef, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { FormField, inputClass, SelectInput, TextArea, TextInput } from './form-field';

/** The attributes of the first `<tag ...>` in server-rendered markup, their names lower-cased as HTML reads them. */
function attributesOf(markup: string, tag: string): Record<string, string> {
  const opening = new RegExp(`<${tag}\\b([^>]*)>`).exec(markup);
  if (!opening) throw new Error(`no <${tag}> in ${markup}`);
  const attributes: Record<string, string> = {};
  for (const [, name = '', value = ''] of (opening[1] ?? '').matchAll(/([\w:-]+)(?:="([^"]*)")?/g))
    attributes[name.toLowerCase()] = value;
  return attributes;
}

/** What the browser hands the handler when the text becomes `value`: the element's props are the rendered input. */
function typeInto(element: ReactElement, value: string) {
  const props = element.props as { onChange: (event: ChangeEvent<HTMLInputElement>) => void };
  const event = { target: { value }, currentTarget: { value } } as ChangeEvent<HTMLInputElement>;
  props.onChange(event);
  return event;
}

describe('TextInput', () => {
  it('is named by its FormField label and described by the hint', () => {
    const markup = renderToStaticMarkup(
      <FormField label="Room" hint="Where the item stood.">
        <TextInput value="Kitchen" onValue={() => {}} />
      </FormField>,
    );
    const label = attributesOf(markup, 'label');
    const input = attributesOf(markup, 'input');
    const hint = attributesOf(markup, 'p');

    expect(input.id).toBeTruthy();
    expect(label.for).toBe(input.id);
    expect(markup).toMatch(/<label[^>]*>Room<\/label>/);
    expect(input['aria-describedby']).toBe(hint.id);
    expect(markup).toContain(`id="${hint.id}"`);
    expect(markup).toMatch(/<p[^>]*>Where the item stood\.<\/p>/);
    expect(input.value).toBe('Kitchen');
  });

  it('marks itself invalid and links the error when the field has one', () => {
    const markup = renderToStaticMarkup(
      <FormField label="Email" error="Enter an email address.">
        <TextInput type="email" value="" onValue={() => {}} />
      </FormField>,
    );
    const input = attributesOf(markup, 'input');
    const error = attributesOf(markup, 'p');
    expect(input['aria-invalid']).toBe('true');
    expect(input['aria-describedby']).toBe(error.id);
  });

  it('passes native attributes through and keeps the app look with extra classes after it', () => {
    const markup = renderToStaticMarkup(
      <TextInput
        type="email"
        name="email"
        autoComplete="off"
        inputMode="email"
        placeholder="e.g. ann@example.com"
        maxLength={60}
        required
        disabled
        className="uppercase"
        value=""
        onValue={() => {}}
      />,
    );
    const input = attributesOf(markup, 'input');
    expect(input).toMatchObject({
      type: 'email',
      name: 'email',
      autocomplete: 'off',
      inputmode: 'email',
      placeholder: 'e.g. ann@example.com',
      maxlength: '60',
      required: '',
      disabled: '',
      class: `${inputClass} uppercase`,
    });
  });

  it('hands the typed text to onValue and the event to onChange', () => {
    const onValue = vi.fn();
    const onChange = vi.fn();
    const event = typeInto(TextInput({ value: '', onValue, onChange }), 'Oak dresser');
    expect(onValue).toHaveBeenCalledExactlyOnceWith('Oak dresser');
    expect(onChange).toHaveBeenCalledExactlyOnceWith(event);
  });

  it('gives the caller’s ref to the input', () => {
    const ref = createRef<HTMLInputElement>();
    expect((TextInput({ ref }).props as { ref: unknown }).ref).toBe(ref);
  });
});

describe('TextArea', () => {
  it('has the app look, passes rows through and hands the text to onValue', () => {
    const markup = renderToStaticMarkup(<TextArea rows={3} maxLength={2000} value="" onValue={() => {}} />);
    expect(attributesOf(markup, 'textarea')).toMatchObject({
      rows: '3',
      maxlength: '2000',
      class: inputClass,
    });

    const onValue = vi.fn();
    typeInto(TextArea({ value: '', onValue }), 'Left at the door');
    expect(onValue).toHaveBeenCalledExactlyOnceWith('Left at the door');
  });
});

describe('SelectInput', () => {
  it('shows the chosen option and hands the new choice to onValue', () => {
    const markup = renderToStaticMarkup(
      <FormField label="Kind">
        <SelectInput value="sit" onValue={() => {}}>
          <option value="permanent">Permanent</option>
          <option value="sit">SIT</option>
        </SelectInput>
      </FormField>,
    );
    expect(attributesOf(markup, 'label').for).toBe(attributesOf(markup, 'select').id);
    expect(attributesOf(markup, 'select').class).toBe(inputClass);
    expect(markup).toMatch(/<option value="sit" selected="">SIT<\/option>/);

    const onValue = vi.fn<(kind: 'permanent' | 'sit') => void>();
    typeInto(SelectInput({ value: 'sit', onValue }), 'permanent');
    expect(onValue).toHaveBeenCalledExactlyOnceWith('permanent');
  });
});
