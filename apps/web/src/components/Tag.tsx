import { Tag as AntTag, type TagProps } from 'antd';

/** Relative luminance of a #rrggbb colour (WCAG 2). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** White where white reads on the colour at 4.5:1 or more (WCAG AA), near-black otherwise. */
export const readableTextOn = (hex: string) => (1.05 / (luminance(hex) + 0.05) >= 4.5 ? '#fff' : 'rgba(0, 0, 0, 0.88)');

/**
 * antd's Tag, with text that reads on its colour: a tag of a custom colour (a level's, a state's)
 * gets white text only where white reads at 4.5:1 or more (WCAG AA), near-black otherwise;
 * preset colours are antd's own.
 */
export function Tag({ color, style, ...props }: TagProps) {
  const custom = typeof color === 'string' && /^#[0-9a-f]{6}$/i.test(color);
  const text = custom ? readableTextOn(color) : undefined;
  return <AntTag color={color} style={text ? { color: text, ...style } : style} {...props} />;
}
