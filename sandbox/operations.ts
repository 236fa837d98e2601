// Which handler runs each operation of the endpoint table.
import type { OperationId } from '../api/endpoints';
import type { OpHandler } from './context';
import { getLocation, listLocations, updateLocation } from './resources/locations';
import { createMenuItem, deleteMenuItem, listMenuCategories, listMenuItems, updateMenuItem } from './resources/menu';
import { createOrder, getOrder, listOrders, updateOrder } from './resources/orders';
import { capturePaymentIntent, createPaymentIntent, createRefund, getPaymentIntent } from './resources/payments';
import { sendTestWebhook } from './resources/webhooks';

export const OPERATIONS: Record<OperationId, OpHandler> = {
  listOrders,
  getOrder,
  createOrder,
  updateOrder,
  createPaymentIntent,
  getPaymentIntent,
  capturePaymentIntent,
  createRefund,
  listLocations,
  getLocation,
  updateLocation,
  listMenuItems,
  createMenuItem,
  updateMenuItem,
  deleteMenuItem,
  listMenuCategories,
  sendTestWebhook,
};
