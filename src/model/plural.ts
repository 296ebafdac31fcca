/** `"1 website"`, `"2 websites"`: for the messages of the plan and every rendering of it. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
