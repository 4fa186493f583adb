// Building the page: elements from data (text is always text, never markup), card faces and backs.

export const $ = (id) => document.getElementById(id);
export const SVG = 'http://www.w3.org/2000/svg';

/** An element with attributes and children (text is always text, never markup). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, String(value));
  for (const child of children)
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return el;
}

const SUITS = { S: '♠', H: '♥', D: '♦', C: '♣' };
const RANKS = { T: '10', J: 'J', Q: 'Q', K: 'K', A: 'A' };

/** A card face, or its back when the card is hidden (null). */
export function cardEl(code, extra) {
  if (!code || typeof code !== 'string' || code.length !== 2 || !SUITS[code[1]]) {
    const label = code && typeof code === 'string' ? code : '';
    return h(
      'span',
      { class: `card back ${extra || ''}`, title: label || 'face down' },
      label && label !== 'hidden' ? label : '',
    );
  }
  const suit = code[1];
  const red = suit === 'H' || suit === 'D';
  return h(
    'span',
    { class: `card ${red ? 'red' : 'black'} ${extra || ''}`, 'data-card': code },
    RANKS[code[0]] || code[0],
    h('span', { class: 'suit' }, SUITS[suit]),
  );
}

export function banner(message, level) {
  const el = $('banner');
  el.textContent = message || '';
  el.className = `banner ${level || 'error'}`;
  el.hidden = !message;
}

export function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
