/** Who a networked tab plays, from its address. */
export interface Join {
  gameId: string;
  seat: string;
  token: string;
}

/** The join the address names (`?game=ID&seat=P&token=T`), or null for the local table. */
export function joinOf(search: string): Join | null {
  const params = new URLSearchParams(search);
  const gameId = params.get('game');
  const seat = params.get('seat');
  const token = params.get('token');
  return gameId !== null && seat !== null && token !== null ? { gameId, seat, token } : null;
}
