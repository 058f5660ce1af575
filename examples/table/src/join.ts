/** Who a networked tab plays, from its address: a seat with its token, or a spectator. */
export type Join = { gameId: string; seat: string; token: string } | { gameId: string; spectator: true };

/** The join the address names (`?game=ID&seat=P&token=T`, or `?game=ID&spectator=1`), or null for the local table. */
export function joinOf(search: string): Join | null {
  const params = new URLSearchParams(search);
  const gameId = params.get('game');
  const seat = params.get('seat');
  const token = params.get('token');
  if (gameId !== null && params.get('spectator') === '1') return { gameId, spectator: true };
  return gameId !== null && seat !== null && token !== null ? { gameId, seat, token } : null;
}
