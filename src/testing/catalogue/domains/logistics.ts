// Catalogue domains of moving goods: shipments, warehouses, carriers, returns, purchase orders and suppliers.
import { verb, type Domain } from '../spec';

export const Shipment: Domain = {
  key: 'Shipment',
  about: 'parcels and pallets sent to customers through a carrier, with their tracking number and expected delivery',
  statuses: ['label_created', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered', 'exception', 'cancelled'],
  fields: {
    orderId: 'id? The order shipped',
    carrierId: 'id The carrier that delivers it',
    warehouseId: 'id? The warehouse it leaves from',
    toAddress: 'string Delivery address on one line, e.g. 12 Rue de Rivoli, 75001 Paris, FR',
    weightKg: 'number Weight in kilograms, e.g. 2.5',
    service: 'enum(standard|express|overnight) Delivery speed',
  },
  computed: {
    trackingNumber: 'string Tracking number given by the carrier, e.g. 1Z999AA10123456784',
    estimatedDelivery: 'date When the carrier expects to deliver it',
  },
  filters: { orderId: 'id? Only the shipments of this order', carrierId: 'id? Only this carrier’s' },
  toolsets: ['logistics'],
  verbs: [
    verb(
      'get {id}/tracking',
      'Track shipment',
      'Returns where the shipment is now, its tracking events from the carrier and when it should arrive.',
      {
        output: {
          trackingNumber: 'string Tracking number, e.g. 1Z999AA10123456784',
          status: 'status Where it is',
          location: 'string Last place scanned, e.g. Lyon hub',
          estimatedDelivery: 'date Expected delivery day',
          events: [
            'Tracking events, newest first',
            {
              at: 'datetime When',
              location: 'string Where',
              description: 'string What happened, e.g. Departed facility',
            },
          ],
        },
      },
    ),
    verb(
      'post {id}/pickup',
      'Schedule pickup',
      'Books the carrier to collect the shipment from the warehouse on a day and in a time window.',
      {
        body: { date: 'date The pickup day', window: 'enum(morning|afternoon) When in the day' },
        output: {
          pickupId: 'id The booking',
          shipmentId: 'id The shipment',
          date: 'date The pickup day',
          window: 'enum(morning|afternoon) When in the day',
          confirmation: 'string Carrier confirmation code, e.g. PRG-44812',
        },
      },
    ),
    verb(
      'post {id}/cancel',
      'Cancel shipment',
      'Cancels a shipment not picked up yet and voids its label with the carrier.',
      { sets: { status: 'cancelled' } },
    ),
    verb(
      'get {id}/label',
      'Print shipping label',
      'Returns the shipping label to print and stick on the parcel, as PDF, ZPL (thermal printers) or PNG.',
      {
        query: { format: 'enum(pdf|zpl|png)? Label format (default pdf)' },
        output: {
          shipmentId: 'id The shipment',
          format: 'enum(pdf|zpl|png) Label format',
          url: 'url Link to the label',
        },
        toolsets: ['documents'],
      },
    ),
    verb(
      'get rates',
      'Compare shipping rates',
      'Quotes the price and transit time of every carrier and service for a parcel between two postcodes.',
      {
        query: {
          fromPostalCode: 'string Postcode it leaves from, e.g. 10115',
          toPostalCode: 'string Postcode it goes to, e.g. 75001',
          weightKg: 'number Weight in kilograms',
        },
        output: {
          items: [
            'The offers, cheapest first',
            {
              carrierId: 'id The carrier',
              service: 'enum(standard|express|overnight) Speed',
              price: 'money Price',
              days: 'int Transit days',
            },
          ],
        },
      },
    ),
    verb(
      'post {id}/claim',
      'Report lost or damaged shipment',
      'Opens a claim with the carrier for a shipment that was lost or arrived damaged.',
      {
        body: {
          kind: 'enum(lost|damaged) What happened',
          description: 'text What is missing or broken',
          photoUrls: 'url[]? Photos of the damage',
        },
        output: {
          shipmentId: 'id The shipment',
          claimNumber: 'string Carrier claim number, e.g. CLM-220391',
          status: 'enum(open|approved|denied) Where the claim is',
        },
        toolsets: ['support'],
      },
    ),
    verb(
      'put {id}/address',
      'Change delivery address',
      'Redirects a shipment in transit to another address, when the carrier allows it (fees may apply).',
      {
        body: { toAddress: 'string The new address on one line' },
      },
    ),
    verb(
      'get delayed',
      'List delayed shipments',
      'Returns the shipments past their expected delivery day and not delivered, the most late first.',
      {
        query: { carrierId: 'id? Only this carrier’s' },
        sets: { status: 'in_transit' },
      },
    ),
  ],
};

export const Warehouse: Domain = {
  key: 'Warehouse',
  about: 'the company’s storage sites, each with its address, manager and capacity in pallets',
  statuses: ['active', 'closed'],
  fields: {
    name: 'string Name, e.g. Rotterdam North',
    address: 'string Address on one line',
    managerId: 'id? The employee who runs it',
    capacityPallets: 'int How many pallets it holds, e.g. 4200',
  },
  assignee: 'managerId',
  toolsets: ['logistics', 'inventory'],
  skip: ['duplicate', 'bulkStatus'],
  verbs: [
    verb(
      'get {id}/stock',
      'Get warehouse stock',
      'Returns what the warehouse holds: each product with its quantity on hand, reserved and available.',
      {
        query: { productId: 'id? Only this product' },
        output: {
          warehouseId: 'id The warehouse',
          items: [
            'The products',
            {
              productId: 'id The product',
              onHand: 'int On the shelves',
              reserved: 'int Promised to orders',
              available: 'int Free to sell',
            },
          ],
        },
      },
    ),
    verb(
      'get {id}/capacity',
      'Get warehouse capacity',
      'Returns how full the warehouse is: pallets used, free and expected in over the next week.',
      {
        output: {
          warehouseId: 'id The warehouse',
          used: 'int Pallets used',
          free: 'int Pallets free',
          incoming: 'int Pallets expected this week',
          percentFull: 'percent How full',
        },
      },
    ),
    verb(
      'post {id}/pick-lists',
      'Create pick list',
      'Groups orders into one pick list for the warehouse staff, sorted by shelf so they walk the aisles once.',
      {
        body: { orderIds: 'id[] The orders to pick' },
        output: {
          pickListId: 'id The pick list',
          warehouseId: 'id The warehouse',
          lines: 'int How many lines to pick',
          url: 'url Printable list',
        },
        additive: true,
      },
    ),
    verb(
      'post {id}/transfers',
      'Transfer stock between warehouses',
      'Moves a quantity of a product from this warehouse to another one and creates the shipment.',
      {
        body: { toWarehouseId: 'id Where it goes', productId: 'id The product', quantity: 'int How many' },
        output: { transferId: 'id The transfer', shipmentId: 'id The shipment made for it', quantity: 'int How many' },
      },
    ),
    verb(
      'post {id}/close',
      'Close warehouse',
      'Stops sending orders to the warehouse; its stock must be moved out first.',
      { sets: { status: 'closed' } },
    ),
    verb(
      'get {id}/receiving',
      'List expected deliveries',
      'Returns the purchase orders and transfers due to arrive at the warehouse, by day.',
      {
        query: { days: 'int(1..60)? How many days ahead (default 7)' },
        output: {
          items: [
            'What is due',
            { date: 'date When', purchaseOrderId: 'id? The purchase order', pallets: 'int How many pallets' },
          ],
        },
      },
    ),
  ],
};

export const Carrier: Domain = {
  key: 'Carrier',
  about: 'the delivery companies (DHL, UPS, La Poste…) the company ships with, with its account number at each',
  statuses: ['active', 'suspended'],
  fields: {
    name: 'string Name, e.g. DHL Express',
    code: 'string Short code, e.g. dhl_express',
    accountNumber: 'string? The company’s account number with the carrier',
    trackingUrl: 'url? Page where customers track a parcel',
  },
  toolsets: ['logistics'],
  skip: ['duplicate', 'share'],
  verbs: [
    verb(
      'post {id}/test',
      'Test carrier connection',
      'Checks that the carrier’s API accepts the stored credentials, by asking it for a rate.',
      {
        output: {
          carrierId: 'id The carrier',
          ok: 'bool Whether it answered',
          latencyMs: 'int How long it took',
          message: 'string? What it said when it failed',
        },
      },
    ),
    verb(
      'get {id}/services',
      'List carrier services',
      'Returns the delivery services the carrier offers the company (standard, express…), with their cut-off times.',
      {
        output: {
          items: [
            'The services',
            {
              code: 'string Service code, e.g. EXPRESS_WORLDWIDE',
              name: 'string Name',
              cutoff: 'string Last pickup time, e.g. 17:00',
            },
          ],
        },
      },
    ),
    verb(
      'get {id}/performance',
      'Get carrier performance',
      'Reports how the carrier did over a period: on-time rate, average transit days, claims.',
      {
        query: { from: 'date First day', to: 'date Last day' },
        output: {
          carrierId: 'id The carrier',
          shipments: 'int Shipments sent',
          onTimePercent: 'percent Delivered on time',
          averageDays: 'number Average transit days',
          claims: 'int Claims opened',
        },
        toolsets: ['reporting'],
      },
    ),
    verb(
      'post {id}/suspend',
      'Suspend carrier',
      'Stops offering the carrier for new shipments; shipments on the way are not affected.',
      { sets: { status: 'suspended' } },
    ),
    verb(
      'post {id}/default',
      'Set default carrier',
      'Makes the carrier the one new shipments use unless another is chosen.',
    ),
  ],
};

export const Return: Domain = {
  key: 'Return',
  about: 'products customers send back (return merchandise authorisations), from the request to the refund',
  statuses: ['requested', 'approved', 'received', 'refunded', 'rejected'],
  fields: {
    orderId: 'id The order the products came with',
    reason: 'enum(damaged|wrong_item|not_as_described|no_longer_needed|other) Why they are sent back',
    items: ['The products sent back', { productId: 'id The product', quantity: 'int How many' }],
    comment: 'text? What the customer said',
  },
  filters: { orderId: 'id? Only the returns of this order' },
  toolsets: ['logistics', 'support'],
  skip: ['duplicate', 'share'],
  verbs: [
    verb(
      'post {id}/approve',
      'Approve return',
      'Accepts the return request and emails the customer a prepaid return label.',
      { sets: { status: 'approved' } },
    ),
    verb(
      'post {id}/reject',
      'Reject return',
      'Declines the return (outside the return window, used product…) with the reason sent to the customer.',
      {
        body: { explanation: 'text Why, as the customer will read it' },
        sets: { status: 'rejected' },
      },
    ),
    verb(
      'post {id}/receive',
      'Mark return received',
      'Records that the parcel arrived at the warehouse, so the products can be inspected.',
      { sets: { status: 'received' } },
    ),
    verb(
      'get {id}/label',
      'Get return label',
      'Returns the prepaid return label the customer prints and sticks on the parcel.',
      {
        output: {
          returnId: 'id The return',
          url: 'url Link to the PDF label',
          trackingNumber: 'string Tracking number of the return parcel',
        },
      },
    ),
    verb(
      'post {id}/refund',
      'Refund return',
      'Refunds the customer for the products received, to the payment method of the order.',
      {
        body: { amount: 'money? How much (default: what the products cost)' },
        sets: { status: 'refunded' },
        toolsets: ['billing'],
      },
    ),
    verb(
      'post {id}/inspection',
      'Record return inspection',
      'Records the condition the returned products arrived in, which decides whether they go back on sale.',
      {
        body: {
          condition: 'enum(resellable|damaged|missing_parts) What state they are in',
          notes: 'text? What was found',
        },
        output: {
          returnId: 'id The return',
          condition: 'enum(resellable|damaged|missing_parts) What state they are in',
          restocked: 'bool Whether they went back on the shelf',
        },
      },
    ),
  ],
};

export const PurchaseOrder: Domain = {
  key: 'PurchaseOrder',
  about: 'orders the company places with its suppliers for stock, from the draft to the goods received at a warehouse',
  statuses: ['draft', 'sent', 'confirmed', 'partially_received', 'received', 'cancelled'],
  fields: {
    supplierId: 'id The supplier',
    warehouseId: 'id Where the goods are delivered',
    expectedOn: 'date When the goods should arrive',
    lines: [
      'What is ordered',
      { productId: 'id The product', quantity: 'int How many', unitCost: 'money Price of one' },
    ],
  },
  computed: { number: 'string Purchase order number, e.g. PO-2026-0310', total: 'money Total cost' },
  filters: { supplierId: 'id? Only this supplier’s', warehouseId: 'id? Only those delivered to this warehouse' },
  toolsets: ['logistics', 'inventory'],
  verbs: [
    verb(
      'post {id}/approve',
      'Approve purchase order',
      'Approves a draft purchase order above the buyer’s spending limit.',
      { body: { note: 'string? A note for the buyer' } },
    ),
    verb(
      'post {id}/send',
      'Send purchase order to supplier',
      'Emails the purchase order to the supplier as a PDF and marks it sent.',
      { sets: { status: 'sent' } },
    ),
    verb(
      'post {id}/confirm',
      'Confirm purchase order',
      'Records the supplier’s confirmation, with the delivery date they promise.',
      {
        body: { expectedOn: 'date The date the supplier promises' },
        sets: { status: 'confirmed' },
      },
    ),
    verb(
      'post {id}/receipts',
      'Receive goods',
      'Records the goods that arrived against the purchase order; stock goes up at the warehouse.',
      {
        body: { lines: ['What arrived', { productId: 'id The product', quantity: 'int How many arrived' }] },
        output: {
          purchaseOrderId: 'id The purchase order',
          unitsReceived: 'int How many units arrived in all',
          status: 'status Where the order is now',
        },
        sets: { status: 'partially_received' },
        toolsets: ['inventory'],
      },
    ),
    verb('post {id}/cancel', 'Cancel purchase order', 'Cancels the purchase order and tells the supplier.', {
      body: { reason: 'string? Why' },
      sets: { status: 'cancelled' },
    }),
    verb(
      'get late',
      'List late purchase orders',
      'Returns the purchase orders past their expected date and not received in full.',
      { sets: { status: 'confirmed' } },
    ),
  ],
};

export const Supplier: Domain = {
  key: 'Supplier',
  about: 'the vendors the company buys goods and services from, with their contact and payment terms',
  statuses: ['active', 'on_hold', 'blocked'],
  fields: {
    name: 'string Name, e.g. Nordic Timber AB',
    email: 'email Orders email, e.g. orders@nordic-timber.example',
    phone: 'phone? Phone number',
    country: 'country Country, ISO 3166 two-letter code, e.g. SE',
    paymentTermsDays: 'int? Days to pay their invoices, e.g. 30',
  },
  toolsets: ['logistics'],
  verbs: [
    verb(
      'post {id}/ratings',
      'Rate supplier',
      'Scores a supplier on quality, price and delivery after an order; the scorecard averages them.',
      {
        body: {
          quality: 'int(1..5) From 1 to 5',
          delivery: 'int(1..5) From 1 to 5',
          price: 'int(1..5) From 1 to 5',
          comment: 'text? Why',
        },
        output: { supplierId: 'id The supplier', average: 'number The new average score' },
        additive: true,
      },
    ),
    verb(
      'get {id}/products',
      'List supplier products',
      'Returns the products the supplier sells the company, with its price and lead time.',
      {
        output: {
          items: [
            'The products',
            { productId: 'id The product', unitCost: 'money Their price', leadTimeDays: 'int Days to deliver' },
          ],
        },
      },
    ),
    verb(
      'post {id}/hold',
      'Put supplier on hold',
      'Stops new purchase orders to the supplier until the hold is lifted.',
      { body: { reason: 'string Why' }, sets: { status: 'on_hold' } },
    ),
    verb(
      'get {id}/scorecard',
      'Get supplier scorecard',
      'Returns how the supplier did over the last 12 months: on-time deliveries, defects, price changes and ratings.',
      {
        output: {
          supplierId: 'id The supplier',
          onTimePercent: 'percent Deliveries on time',
          defectPercent: 'percent Goods returned as defective',
          rating: 'number Average rating from 1 to 5',
        },
        toolsets: ['reporting'],
      },
    ),
    verb(
      'post {id}/quote-requests',
      'Request quote from supplier',
      'Asks the supplier for a price and lead time on a list of products, by email.',
      {
        body: {
          items: ['What to quote', { productId: 'id The product', quantity: 'int How many' }],
          respondBy: 'date? Answer wanted by',
        },
        output: { requestId: 'id The request', supplierId: 'id The supplier', sentAt: 'datetime When it was sent' },
      },
    ),
  ],
};
