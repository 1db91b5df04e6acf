import { Cart } from "./cart.js";

const carts = new Map();

export function handle(req) {
  const cart = carts.get(req.user) ?? new Cart();
  carts.set(req.user, cart);
  switch (req.path) {
    case "/add":
      cart.add(req.item, req.qty);
      return { status: 200, body: cart.total() };
    case "/checkout":
      // TODO: rate-limit checkout per user
      return { status: 202, body: "queued" };
  }
  return { status: 404, body: "not found" };
}
