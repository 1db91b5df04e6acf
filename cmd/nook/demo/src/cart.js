export class Cart {
  constructor() {
    this.items = [];
  }
  add(item, qty = 1) {
    this.items.push({ item, qty });
  }
  total() {
    // TODO: prices are floats here; use cents
    return this.items.reduce((sum, l) => sum + l.item.price * l.qty, 0);
  }
}
