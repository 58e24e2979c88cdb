// Catalogue domains of selling goods: products, orders, stock, quotes, coupons, and the company's own equipment.
import { verb, type Domain } from '../spec';

export const Product: Domain = {
  key: 'Product',
  about: 'the goods and services the company sells, with SKU, price, category and images',
  statuses: ['draft', 'active', 'discontinued'],
  fields: {
    name: 'string Name, e.g. Oak dining chair',
    sku: 'string Stock keeping unit, e.g. CHAIR-OAK-01',
    price: 'money List price',
    currency: 'currency Currency of the price',
    category: 'string? Category, e.g. Furniture',
    description: 'text? What customers read on the shop',
  },
  filters: { category: 'string? Only this category' },
  toolsets: ['sales'],
  verbs: [
    verb(
      'put {id}/price',
      'Change product price',
      'Sets a new list price, now or from a later day; open quotes keep the old one.',
      {
        body: { price: 'money The new price', effectiveFrom: 'date? From when (default today)' },
      },
    ),
    verb('post {id}/publish', 'Publish product', 'Puts the product on sale in the shop.', {
      sets: { status: 'active' },
    }),
    verb(
      'post {id}/discontinue',
      'Discontinue product',
      'Stops selling the product; what is left in stock can still be sold if asked.',
      {
        body: { sellRemainingStock: 'bool? Keep selling what is in stock (default true)' },
        sets: { status: 'discontinued' },
      },
    ),
    verb(
      'post {id}/images',
      'Upload product image',
      'Adds a photo to the product’s gallery from a URL (JPEG, PNG or WebP); the first one is the main image.',
      {
        body: { url: 'url Where the image is', altText: 'string? Text for screen readers, e.g. Oak chair, side view' },
        output: {
          imageId: 'id The image',
          productId: 'id The product',
          url: 'url The stored image',
          width: 'int Width in pixels',
          height: 'int Height in pixels',
        },
        toolsets: ['media'],
        additive: true,
      },
    ),
    verb('get {id}/image', 'Get product image', 'Returns the product’s main image: its URL, size and alt text.', {
      output: {
        productId: 'id The product',
        url: 'url The image',
        width: 'int Width in pixels',
        height: 'int Height in pixels',
        altText: 'string? Alt text',
      },
      toolsets: ['media'],
    }),
    verb(
      'get {id}/variants',
      'List product variants',
      'Returns the sizes and colours the product comes in, each with its own SKU and stock.',
      {
        output: {
          items: [
            'The variants',
            { name: 'string Name, e.g. Size L / Blue', sku: 'string Its SKU', inStock: 'int Units in stock' },
          ],
        },
      },
    ),
    verb(
      'post {id}/variants',
      'Add product variant',
      'Adds a size or colour of the product with its own SKU and, if it differs, price.',
      {
        body: {
          name: 'string Name, e.g. Size L / Blue',
          sku: 'string Its SKU',
          price: 'money? Its price (default: the product’s)',
        },
        output: {
          variantId: 'id The variant',
          productId: 'id The product',
          name: 'string Its name',
          sku: 'string Its SKU',
        },
        additive: true,
      },
    ),
  ],
};

export const Order: Domain = {
  key: 'Order',
  about: 'customers’ purchases from the shop or sales team, with their lines, payment and shipping',
  statuses: ['pending', 'paid', 'fulfilled', 'shipped', 'delivered', 'cancelled', 'refunded'],
  fields: {
    customerId: 'id The customer who ordered (a contact)',
    lines: [
      'What is ordered',
      { productId: 'id The product', quantity: 'int How many', unitPrice: 'money Price of one' },
    ],
    currency: 'currency Currency of the amounts',
    shippingAddress: 'string Where to deliver, on one line',
    couponCode: 'string? A discount code, e.g. SPRING20',
  },
  computed: { number: 'string Order number, e.g. SO-2026-00042', total: 'money Total paid, with tax and shipping' },
  filters: { customerId: 'id? Only this customer’s orders', placedAfter: 'date? Only orders placed after this day' },
  toolsets: ['sales'],
  verbs: [
    verb(
      'post {id}/cancel',
      'Cancel order',
      'Cancels an order that has not shipped; a paid order is refunded in full.',
      {
        body: { reason: 'enum(customer_request|out_of_stock|fraud|other) Why' },
        sets: { status: 'cancelled' },
      },
    ),
    verb('post {id}/refund', 'Refund order', 'Refunds all or part of a paid order to the payment method used.', {
      body: { amount: 'money? How much (default: the whole order)', reason: 'string Why' },
      output: { orderId: 'id The order', refundId: 'id The refund', amount: 'money How much goes back' },
      toolsets: ['billing'],
    }),
    verb('post {id}/fulfil', 'Fulfil order', 'Sends the order to the warehouse to be picked and packed.', {
      body: { warehouseId: 'id? Which warehouse (default: the nearest with stock)' },
      sets: { status: 'fulfilled' },
      toolsets: ['logistics'],
    }),
    verb(
      'get {id}/invoice',
      'Get order invoice',
      'Returns the invoice of the order: its number, total and a link to the PDF.',
      {
        output: {
          orderId: 'id The order',
          invoiceId: 'id The invoice',
          number: 'string Invoice number',
          url: 'url Link to the PDF',
        },
        toolsets: ['billing'],
      },
    ),
    verb(
      'post {id}/shipments',
      'Ship order',
      'Creates the shipment of a fulfilled order with a carrier and returns its tracking number.',
      {
        body: {
          carrierId: 'id? The carrier (default: the default carrier)',
          service: 'enum(standard|express|overnight)? Speed (default standard)',
        },
        output: { orderId: 'id The order', shipmentId: 'id The shipment', trackingNumber: 'string Tracking number' },
        toolsets: ['logistics'],
      },
    ),
    verb(
      'get {id}/status',
      'Where is my order',
      'Tells where an order is, as a customer asks it: paid, packed, shipped (with tracking), delivered.',
      {
        output: {
          orderId: 'id The order',
          status: 'status Where it is',
          trackingNumber: 'string? Tracking number once shipped',
          estimatedDelivery: 'date? Expected delivery',
        },
        toolsets: ['support'],
      },
    ),
  ],
};

export const StockItem: Domain = {
  key: 'StockItem',
  about: 'how much of each product is held at each warehouse and in which bin, with reorder points',
  statuses: ['in_stock', 'low_stock', 'out_of_stock'],
  fields: {
    productId: 'id The product',
    warehouseId: 'id The warehouse',
    quantity: 'int Units on hand',
    reorderPoint: 'int? Reorder when fewer are left, e.g. 20',
    bin: 'string? Shelf location, e.g. A-12-3',
  },
  filters: { productId: 'id? Only this product', warehouseId: 'id? Only this warehouse' },
  toolsets: ['inventory'],
  skip: ['duplicate', 'share'],
  verbs: [
    verb(
      'post {id}/adjust',
      'Adjust stock level',
      'Adds or removes units by hand (a count, damage, theft), with the reason kept in the stock movements.',
      {
        body: {
          delta: 'int Units to add (positive) or remove (negative)',
          reason: 'enum(count|damage|theft|correction) Why',
        },
        output: { stockItemId: 'id The stock item', quantity: 'int Units on hand now', status: 'status Stock level' },
      },
    ),
    verb('post {id}/reservations', 'Reserve stock', 'Holds units for an order so they are not sold twice.', {
      body: { orderId: 'id The order', quantity: 'int How many' },
      output: { reservationId: 'id The reservation', stockItemId: 'id The stock item', quantity: 'int Units held' },
    }),
    verb(
      'del {id}/reservations/{reservationId}',
      'Release stock reservation',
      'Frees units held for an order that was cancelled or changed.',
      {
        params: { reservationId: 'id The reservation' },
      },
    ),
    verb('get low-stock', 'List low stock items', 'Returns what is at or below its reorder point, emptiest first.', {
      query: { warehouseId: 'id? Only this warehouse' },
      sets: { status: 'low_stock' },
    }),
    verb(
      'post {id}/reorder',
      'Reorder stock',
      'Drafts a purchase order to the product’s usual supplier for the usual quantity.',
      {
        body: { quantity: 'int? How many (default: the usual quantity)' },
        output: {
          stockItemId: 'id The stock item',
          purchaseOrderId: 'id The draft purchase order',
          quantity: 'int Units ordered',
        },
        toolsets: ['logistics'],
      },
    ),
    verb(
      'put {id}/bin',
      'Move stock to another bin',
      'Records that the units were moved to another shelf of the warehouse.',
      { body: { bin: 'string The new shelf, e.g. B-02-1' } },
    ),
    verb(
      'get {id}/movements',
      'List stock movements',
      'Returns every change of the stock level, newest first: receipts, sales, adjustments, transfers.',
      {
        output: {
          items: [
            'The movements',
            { at: 'datetime When', delta: 'int Units in or out', reason: 'string Why, e.g. Order SO-2026-00042' },
          ],
        },
      },
    ),
  ],
};

export const Quote: Domain = {
  key: 'Quote',
  about: 'price offers sent to prospects before they order, valid until a date',
  statuses: ['draft', 'sent', 'accepted', 'declined', 'expired'],
  fields: {
    accountId: 'id The customer (an account)',
    dealId: 'id? The deal it is for',
    lines: [
      'What is offered',
      { productId: 'id The product', quantity: 'int How many', unitPrice: 'money Price of one' },
    ],
    validUntil: 'date Until when the prices hold',
    currency: 'currency Currency of the prices',
  },
  computed: { number: 'string Quote number, e.g. Q-2026-0191', total: 'money Total' },
  filters: { accountId: 'id? Only this customer’s quotes', dealId: 'id? Only this deal’s' },
  toolsets: ['sales'],
  verbs: [
    verb(
      'post {id}/send',
      'Send quote',
      'Emails the quote as a PDF to the customer, with a link to accept it online.',
      {
        body: { to: 'email? Send it to this address instead of the main contact' },
        sets: { status: 'sent' },
      },
    ),
    verb('post {id}/accept', 'Accept quote', 'Records that the customer accepted the quote.', {
      sets: { status: 'accepted' },
    }),
    verb('post {id}/decline', 'Decline quote', 'Records that the customer turned the quote down, and why.', {
      body: { reason: 'string? Why' },
      sets: { status: 'declined' },
    }),
    verb('post {id}/order', 'Convert quote to order', 'Makes an order of an accepted quote, at the quoted prices.', {
      output: { quoteId: 'id The quote', orderId: 'id The new order' },
    }),
    verb('get {id}/pdf', 'Download quote PDF', 'Returns a link to the quote as a PDF, as the customer receives it.', {
      output: { quoteId: 'id The quote', url: 'url Link to the PDF' },
      toolsets: ['documents'],
    }),
    verb(
      'post {id}/revise',
      'Revise quote',
      'Makes a new version of a sent quote to change prices or lines; the old one is kept.',
      { additive: true },
    ),
  ],
};

export const Coupon: Domain = {
  key: 'Coupon',
  about: 'discount codes customers enter at checkout: a percentage or an amount off, until a date or a number of uses',
  statuses: ['active', 'paused', 'expired'],
  fields: {
    code: 'string The code, e.g. SPRING20',
    percentOff: 'percent? Percentage off',
    amountOff: 'money? Amount off, instead of a percentage',
    expiresOn: 'date? Last day it works',
    maxRedemptions: 'int? How many times it may be used',
  },
  toolsets: ['sales', 'marketing'],
  verbs: [
    verb(
      'get validate',
      'Validate coupon code',
      'Checks whether a code works for an order total today, and what it takes off.',
      {
        query: { code: 'string The code', orderTotal: 'money? The order total' },
        output: {
          code: 'string The code',
          valid: 'bool Whether it works',
          discount: 'money What it takes off',
          reason: 'string? Why not, when it does not',
        },
      },
    ),
    verb('post {id}/redemptions', 'Redeem coupon', 'Uses the coupon on an order.', {
      body: { orderId: 'id The order' },
      output: {
        couponId: 'id The coupon',
        orderId: 'id The order',
        discount: 'money What it took off',
        remaining: 'int? Uses left',
      },
    }),
    verb('post {id}/pause', 'Pause coupon', 'Stops the code working for now.', { sets: { status: 'paused' } }),
    verb('post {id}/resume', 'Resume coupon', 'Makes a paused code work again.', { sets: { status: 'active' } }),
    verb(
      'post generate',
      'Generate coupon codes',
      'Creates many single-use codes at once, e.g. for a mailing, with the same discount.',
      {
        body: {
          prefix: 'string Start of each code, e.g. VIP',
          count: 'int(1..10000) How many',
          percentOff: 'percent Percentage off',
        },
        output: { count: 'int How many were made', codes: 'string[] The codes' },
        additive: true,
      },
    ),
    verb(
      'get {id}/redemptions',
      'List coupon redemptions',
      'Returns the orders the coupon was used on, newest first.',
      {
        output: {
          items: ['The uses', { orderId: 'id The order', discount: 'money What it took off', at: 'datetime When' }],
        },
      },
    ),
  ],
};

export const Asset: Domain = {
  key: 'Asset',
  about:
    'the company’s own equipment (laptops, phones, vehicles, machines) with serial number, location and who holds it',
  statuses: ['in_stock', 'assigned', 'in_repair', 'retired'],
  fields: {
    name: 'string Name, e.g. MacBook Pro 14 (2025)',
    serialNumber: 'string Serial number, e.g. C02XK0AAJGH5',
    category: 'enum(laptop|phone|monitor|vehicle|machine|furniture) Kind',
    holderId: 'id? The employee who has it',
    purchasedOn: 'date? When it was bought',
    cost: 'money? What it cost',
  },
  filters: {
    holderId: 'id? Only what this employee has',
    category: 'enum(laptop|phone|monitor|vehicle|machine|furniture)? Only this kind',
  },
  assignee: 'holderId',
  toolsets: ['inventory', 'it'],
  verbs: [
    verb('post {id}/check-out', 'Check out asset', 'Hands the equipment to an employee, who signs for it.', {
      body: { holderId: 'id The employee', dueBack: 'date? When it should come back' },
      sets: { status: 'assigned' },
    }),
    verb('post {id}/check-in', 'Check in asset', 'Records that the equipment came back, and in what state.', {
      body: { condition: 'enum(good|worn|damaged) Its state' },
      sets: { status: 'in_stock' },
    }),
    verb('post {id}/repair', 'Send asset to repair', 'Sends the equipment to be repaired, with what is wrong.', {
      body: { problem: 'text What is wrong' },
      sets: { status: 'in_repair' },
    }),
    verb('post {id}/retire', 'Retire asset', 'Takes the equipment out of use (sold, recycled, lost).', {
      body: { reason: 'enum(sold|recycled|lost|stolen) Why' },
      sets: { status: 'retired' },
    }),
    verb(
      'get {id}/depreciation',
      'Get asset depreciation',
      'Returns what the equipment is worth today on the books, year by year.',
      {
        output: {
          assetId: 'id The asset',
          bookValue: 'money Worth today',
          years: ['Year by year', { year: 'int The year', value: 'money Worth at its end' }],
        },
        toolsets: ['finance'],
      },
    ),
  ],
};
