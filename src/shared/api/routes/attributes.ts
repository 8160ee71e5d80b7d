// Routes of a contact attribute.
import { Success } from '../../schemas/common';
import { Attribute } from '../../schemas/entities';
import { CreateAttributeBody, PatchAttributeBody } from '../../schemas/requests';
import { adminIn, pathParams, route, wsBody } from './define';

export const attributeRoutes = {
  createAttribute: route({
    method: 'POST', path: '/attribute', tag: 'attribute', summary: 'Create an attribute (409 if the name exists in the workspace)',
    body: CreateAttributeBody, status: 201, response: Attribute, access: wsBody('admin'),
  }),
  patchAttribute: route({
    method: 'PATCH', path: '/attribute/:attributeId', tag: 'attribute', summary: 'Update an attribute',
    params: pathParams.attribute, body: PatchAttributeBody, status: 200, response: Attribute, access: adminIn('attribute', 'attributeId'),
  }),
  deleteAttribute: route({
    method: 'DELETE', path: '/attribute/:attributeId', tag: 'attribute', summary: 'Delete an attribute',
    params: pathParams.attribute, status: 200, response: Success, access: adminIn('attribute', 'attributeId'),
  }),
} as const;
